import Foundation
import Glibc
import TapedeckCore

/// Takes response body bytes from libcurl's write callback and puts them where the request asked:
/// memory, a file (written straight through, so memory stays flat), or stream events.
final class ResponseBodyWriter {
    private enum Sink {
        case memory(Data)
        case file(fd: Int32, url: URL)
        case stream(HTTPEventStream.Continuation)
    }

    private var sink: Sink
    private(set) var byteCount: Int64 = 0
    /// The error that stopped a file write, if any.
    private(set) var writeFailure: Int32?

    /// Opens the destination. Throws `URLError.cannotCreateFile` when a file cannot be created.
    init(destination: ResponseBodyDestination, url: URL, continuation: HTTPEventStream.Continuation) throws {
        switch destination {
        case .memory:
            sink = .memory(Data())
        case .stream:
            sink = .stream(continuation)
        case .file(let fileURL):
            let fd = open(fileURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                throw URLError(.cannotCreateFile, failingURL: url, reason: "cannot create \(fileURL.path): \(reason)")
            }
            sink = .file(fd: fd, url: fileURL)
        }
    }

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
        case .stream(let continuation):
            continuation.yield(.bodyChunk(Data(bytes)))
            return true
        case .file(let fd, _):
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    writeFailure = errno
                    return false
                }
                offset += written
            }
            return true
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
            return .file(url, byteCount: byteCount)
        }
    }

    private func closeFile() {
        if case .file(let fd, let url) = sink, fd >= 0 {
            _ = Glibc.close(fd)
            sink = .file(fd: -1, url: url)
        }
    }
}
