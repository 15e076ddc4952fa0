import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive, non-blocking inter-process lock (`flock`) on `<cassette>.lock`, held while a transport may
/// record. The lock file is never renamed, so the lock survives the cassette's atomic replacement; the holder's
/// process id is written into it for error messages. The kernel drops the lock if the process dies.
final class FileLock: Sendable {
    let path: String
    private let descriptor: Int32

    /// Takes the lock or throws ``CassetteError/locked(file:holder:)`` naming who holds it.
    init(cassette: URL) throws(CassetteError) {
        path = cassette.path + ".lock"
        // A first recording may go into a folder that does not exist yet (e.g. Cassettes/<Suite>/).
        try? FileManager.default.createDirectory(at: cassette.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CassetteError.io(file: path, operation: "open the lock file", reason: String(cString: strerror(errno)))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            guard busy else { throw CassetteError.io(file: path, operation: "lock", reason: reason) }
            let holder = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
            throw CassetteError.locked(file: cassette.path, holder: holder.isEmpty ? "another recorder" : "process \(holder)")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        descriptor = fd
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
