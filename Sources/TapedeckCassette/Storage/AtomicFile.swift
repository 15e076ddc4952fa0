import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that readers see either the old or the new contents, never a mix: a temporary file in the same
/// directory, flushed to disk, then renamed over the target.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws(CassetteError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CassetteError.io(file: directory.path, operation: "create the directory", reason: "\(error)")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CassetteError.io(file: url.path, operation: "create the temporary file \(temporary.lastPathComponent) to write",
                                   reason: String(cString: strerror(errno)))
        }
        var failure = data.withUnsafeBytes { writeFully(fd, $0) }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw CassetteError.io(file: url.path, operation: "write", reason: failure)
        }
    }

    /// Moves a finished temporary file into place.
    static func move(_ temporary: URL, to url: URL) throws(CassetteError) {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CassetteError.io(file: url.path, operation: "move into place", reason: reason)
        }
    }
}

/// Writes all of `bytes` to `fd`, retrying interrupted and partial writes; the error text, or `nil` on success.
private func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
    var offset = 0
    while offset < bytes.count {
        let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return String(cString: strerror(errno))
        }
        offset += written
    }
    return nil
}
