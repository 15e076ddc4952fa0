import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive, non-blocking inter-process lock (`flock`) for one cassette, held while a transport may record.
///
/// The lock file lives outside the project, in `$TAPEDECK_LOCK_DIR` or the temporary directory's `tapedeck-locks/`,
/// named after the cassette's absolute path (so two paths to one cassette through a symbolic link share it), and is
/// removed when the lock is released: nothing is left beside the cassette. It is never the cassette itself, which
/// is replaced atomically and so changes inode. The holder's process id is written into it for error messages; the
/// kernel drops the lock if the process dies (a file left by a crash is reused, not mistaken for a holder).
final class FileLock: Sendable {
    let path: String
    private let descriptor: Int32

    /// The environment variable naming the folder lock files go in (default: the temporary directory's
    /// `tapedeck-locks`).
    static let directoryVariable = "TAPEDECK_LOCK_DIR"

    /// Takes the lock or throws ``CassetteError/locked(file:holder:)`` naming who holds it.
    init(cassette: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CassetteError) {
        // A first recording may go into a folder that does not exist yet (e.g. Cassettes/<Suite>/).
        try? FileManager.default.createDirectory(at: cassette.deletingLastPathComponent(), withIntermediateDirectories: true)
        path = try Self.lockFile(for: cassette, environment: environment)
        // A holder removes the file before releasing the lock: a lock taken on a file that is no longer at `path`
        // protects nothing, so it is taken again on the file that is.
        for _ in 0..<16 {
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
            var held = stat()
            var named = stat()
            guard fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev else {
                close(fd)
                continue
            }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            descriptor = fd
            return
        }
        throw CassetteError.io(file: path, operation: "lock", reason: "the lock file kept being replaced by other recorders")
    }

    /// Where the lock file of `cassette` goes: one per absolute cassette path, in a folder of lock files.
    static func lockFile(for cassette: URL, environment: [String: String]) throws(CassetteError) -> String {
        let folder = environment[directoryVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-locks").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o1777])
        } catch {
            throw CassetteError.io(file: folder, operation: "create the lock folder", reason: "\(error)")
        }
        let absolute = cassette.standardizedFileURL.resolvingSymlinksInPath().path
        let readable = String(cassette.lastPathComponent.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(64))
        return folder + "/" + readable + "-" + ContentHash.of(Data(absolute.utf8)) + ".lock"
    }

    deinit {
        // Removed while still held, so a recorder waiting on this file sees it gone and takes the new one.
        unlink(path)
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
