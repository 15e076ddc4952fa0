import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file the user named (a cassette, a stub or mapping file, an OpenAPI document, a VCR cassette), and says
/// in words why it cannot: "is a directory, not a file", "does not exist", "permission denied", instead of
/// Foundation's "NSCocoaErrorDomain error 256". A FIFO or character device (`<(…)`, `/dev/stdin`) is read to its
/// end; a file larger than `maximumBytes` is refused before it is read.
///
/// ```swift
/// let data = try InputFile.read(URL(fileURLWithPath: "stubs.json"))
/// ```
package enum InputFile {
    /// The largest file read: 1 GiB.
    package static let maximumBytes = 1 << 30

    /// Why a file could not be read: the path and the reason in words.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var path: String
        package var reason: String

        /// `PATH: REASON`.
        package var description: String { "\(path): \(reason)" }
    }

    /// The bytes of the file at `url`.
    package static func read(_ url: URL, maximumBytes: Int = InputFile.maximumBytes) throws(Failure) -> Data {
        let fd = try openChecked(url, maximumBytes: maximumBytes)
        defer { close(fd) }
        let path = url.path
        func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw fail(reason(errno))
            }
            if count == 0 { return data }
            guard data.count + count <= maximumBytes else { throw fail("holds more than the \(maximumBytes) bytes Tapedeck reads") }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// The file at `url` opened for reading, for a caller that reads it in pieces (a large sidecar body), with the
    /// same checks and words as ``read(_:maximumBytes:)``.
    package static func openForReading(_ url: URL, maximumBytes: Int = InputFile.maximumBytes) throws(Failure) -> FileHandle {
        FileHandle(fileDescriptor: try openChecked(url, maximumBytes: maximumBytes), closeOnDealloc: true)
    }

    /// A read-only descriptor of `url`, refused in words when it is a directory, a socket or too large.
    private static func openChecked(_ url: URL, maximumBytes: Int) throws(Failure) -> Int32 {
        let path = url.path
        func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw fail(reason(errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { let code = errno; close(fd); throw fail(reason(code)) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: close(fd); throw fail("is a directory, not a file")
        case S_IFREG:
            guard Int(info.st_size) <= maximumBytes else {
                close(fd)
                throw fail("is \(info.st_size) bytes, more than the \(maximumBytes) Tapedeck reads")
            }
        case S_IFSOCK: close(fd); throw fail("is a socket, not a file")
        default: break  // FIFOs and character devices are read to their end.
        }
        return fd
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "does not exist"
        case EACCES, EPERM: return "cannot be read: permission denied"
        case EISDIR: return "is a directory, not a file"
        case ENOTDIR: return "does not exist (a part of the path is not a directory)"
        default: return "cannot be read: \(String(cString: strerror(code)))"
        }
    }
}
