import Foundation
import Glibc
import TapedeckCore

/// Feeds a request body to libcurl's read callback, from memory, a file, or an asynchronous stream.
/// Lives on the event-loop thread; only the stream pump it owns crosses threads.
final class RequestBodyReader {
    /// What one read produced.
    enum ReadResult {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing buffered yet; pause the transfer until the pump has more.
        case wouldBlock
        /// The body failed.
        case failed(any Error)
    }

    private enum Source {
        case data(Data, offset: Int)
        case file(fd: Int32)
        case stream(StreamBodyPump)
    }

    private var source: Source
    let length: Int64?

    /// Opens the body. Throws `URLError` when a file body is missing or unreadable.
    init(body: HTTPRequestBody, url: URL, onStreamReadable: @escaping @Sendable () -> Void) throws {
        length = body.knownLength
        switch body {
        case .none:
            source = .data(Data(), offset: 0)
        case .data(let data):
            source = .data(data, offset: 0)
        case .file(let fileURL):
            let fd = open(fileURL.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let code: URLError.Code = errno == ENOENT ? .fileDoesNotExist : .noPermissionsToReadFile
                let reason = String(cString: strerror(errno))
                throw URLError(code, failingURL: url, reason: "cannot open upload file \(fileURL.path): \(reason)")
            }
            source = .file(fd: fd)
        case .stream(let stream):
            source = .stream(StreamBodyPump(stream: stream, onReadable: onStreamReadable))
        }
    }

    deinit { close() }

    /// Copies up to `buffer.count` bytes of the body into `buffer`; `.bytes(0)` means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        switch source {
        case .data(let data, let offset):
            let count = min(buffer.count, data.count - offset)
            guard count > 0 else { return .bytes(0) }
            data.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            }
            source = .data(data, offset: offset + count)
            return .bytes(count)
        case .file(let fd):
            while true {
                let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if count >= 0 { return .bytes(count) }
                if errno == EINTR { continue }
                return .failed(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
        case .stream(let pump):
            return pump.read(into: buffer)
        }
    }

    /// Moves back to `offset` so the body can be sent again (after a redirect or an auth challenge).
    /// Returns `false` for a stream, which cannot rewind.
    func rewind(to offset: Int64) -> Bool {
        switch source {
        case .data(let data, _):
            guard offset >= 0, offset <= Int64(data.count) else { return false }
            source = .data(data, offset: Int(offset))
            return true
        case .file(let fd):
            return lseek(fd, off_t(offset), SEEK_SET) == off_t(offset)
        case .stream:
            return false
        }
    }

    /// Releases the file descriptor or stops the stream pump.
    func close() {
        switch source {
        case .file(let fd):
            _ = Glibc.close(fd)
            source = .data(Data(), offset: 0)
        case .stream(let pump):
            pump.cancel()
        case .data:
            break
        }
    }
}
