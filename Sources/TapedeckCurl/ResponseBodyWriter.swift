import Foundation
import Glibc
import TapedeckCore

/// Takes response body bytes from libcurl's write callback and puts them where the request asked:
/// memory, a file (written straight through, so memory stays flat), or stream events.
final class ResponseBodyWriter {
    private enum Sink {
        case memory(Data)
        case file(fd: Int32, url: URL)
        case stream(TransferSink)
    }

    private var sink: Sink
    private(set) var byteCount: Int64 = 0
    /// The error that stopped a file write, if any.
    private(set) var writeFailure: Int32?

    /// Opens the destination. Throws `URLError.cannotCreateFile` when a file cannot be created.
    init(destination: ResponseBodyDestination, url: URL, events: TransferSink) throws {
        switch destination {
        case .memory:
            sink = .memory(Data())
        case .stream:
            sink = .stream(events)
        case .file(let fileURL):
            sink = .file(fd: try Self.open(fileURL, truncating: true, for: url), url: fileURL)
        case .resumingFile(let fileURL, let existingLength):
            sink = .file(fd: try Self.open(fileURL, truncating: false, for: url), url: fileURL)
            resumeOffset = max(0, existingLength)
        }
    }

    /// Where each piece written to a file is also reported, as a `bodyChunk` event (``HTTPRequest/reportsFileBodyChunks``).
    var fileChunkEvents: TransferSink?

    /// Where a resumed download continues, until the response head says whether the server honoured the range.
    private var resumeOffset: Int64?

    private static func open(_ fileURL: URL, truncating: Bool, for url: URL) throws -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : 0)
        let fd = Glibc.open(fileURL.path, flags, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw URLError(.cannotCreateFile, failingURL: url, reason: "cannot create \(fileURL.path): \(reason)")
        }
        return fd
    }

    /// Positions a resumed download: after the kept bytes for `206 Partial Content`, at the start otherwise. A hop a
    /// session will follow or answer (a redirect with a `Location`, a `401`/`407` challenge) leaves the partial file
    /// as it is: its body is kept in memory, and the next hop continues the download.
    func didReceiveHead(_ head: HTTPResponseHead) {
        guard case .file(let fd, _) = sink, let offset = resumeOffset else { return }
        if head.isInterimHop {
            _ = Glibc.close(fd)
            sink = .memory(Data())
            resumeOffset = nil
            return
        }
        let keep = head.statusCode == 206 ? offset : 0
        _ = ftruncate(fd, off_t(keep))
        _ = lseek(fd, off_t(keep), SEEK_SET)
        resumedLength = keep
        resumeOffset = nil
    }

    /// Bytes kept from an earlier partial download (0 unless a range was honoured).
    private(set) var resumedLength: Int64 = 0

    deinit { closeFile() }

    /// Reserves room for a body of a known length (memory destination only; capped so a lying header cannot
    /// make it allocate without bound).
    func expect(length: Int64) {
        guard case .memory(var data) = sink, length > 0 else { return }
        sink = .memory(Data())
        data.reserveCapacity(Int(min(length, 64 << 20)))
        sink = .memory(data)
    }

    /// Consumes a piece of the body. Returns `false` when it could not be stored.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        byteCount += Int64(bytes.count)
        switch sink {
        case .memory(var data):
            sink = .memory(Data())  // keep `data` uniquely referenced while appending
            data.append(bytes.assumingMemoryBound(to: UInt8.self))
            sink = .memory(data)
            return true
        case .stream(let events):
            events.yield(.bodyChunk(Data(bytes)))
            return true
        case .file(let fd, _):
            guard let code = writeFully(fd, bytes) else {
                fileChunkEvents?.yield(.bodyChunk(Data(bytes)))
                return true
            }
            writeFailure = code
            return false
        }
    }

    /// Where the body ended up; closes the file.
    func finish() -> HTTPResponseBody {
        switch sink {
        case .memory(let data):
            return .data(data)
        case .stream:
            return .streamed(byteCount: byteCount)
        case .file(_, let url):
            closeFile()
            return .file(url, byteCount: resumedLength + byteCount)
        }
    }

    private func closeFile() {
        if case .file(let fd, let url) = sink, fd >= 0 {
            _ = Glibc.close(fd)
            sink = .file(fd: -1, url: url)
        }
    }
}
