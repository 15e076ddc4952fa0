import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that readers see either the old or the new contents, never a mix: a temporary file in the same
/// directory, flushed to disk, then renamed over the target. The one way Tapedeck writes a file the user named
/// (`-o`, in-place rewrites, cassettes and their sidecars).
///
/// Only a regular file (or a path where nothing is yet) is replaced. A symbolic link is followed: its target is
/// written, the link stays. A character device or a FIFO (`-o /dev/stdout`, `-o /dev/full`, a named pipe with a
/// reader) is written through, and a write error (`/dev/full`'s "No space left on device") is reported. A directory,
/// a FIFO without a reader, a socket or a block device is refused in words. Renaming over a device node would replace
/// it with a regular file.
package enum AtomicFile {
    /// What is at the path a write names.
    enum Target: Equatable {
        /// Nothing, or a regular file: written atomically at this path.
        case replaceable(String)
        /// A character device or a FIFO: written through.
        case stream(String)
        /// Anything else: refused with this reason.
        case refused(String)
    }

    package static func write(_ data: Data, to url: URL) throws(CassetteError) {
        switch target(url.path) {
        case .refused(let reason):
            throw CassetteError.io(file: url.path, operation: "write", reason: reason)
        case .stream(let path):
            try writeThrough(data, to: path, named: url.path)
        case .replaceable(let path):
            try replace(data, at: URL(fileURLWithPath: path), named: url.path)
        }
    }

    /// What `path` is, with a symbolic link followed (to its final target, which may not exist yet).
    static func target(_ path: String) -> Target {
        var info = stat()
        if lstat(path, &info) != 0 {
            return errno == ENOENT ? .replaceable(path) : .refused(String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .replaceable(path)
        case S_IFLNK:
            var resolved = path
            for _ in 0..<40 {
                guard let next = try? FileManager.default.destinationOfSymbolicLink(atPath: resolved) else { break }
                resolved = next.hasPrefix("/") ? next : (URL(fileURLWithPath: resolved).deletingLastPathComponent().path + "/" + next)
                var linkInfo = stat()
                guard lstat(resolved, &linkInfo) == 0, linkInfo.st_mode & S_IFMT == S_IFLNK else { break }
            }
            if resolved == path { return .refused("is a symbolic link that cannot be followed") }
            if case .replaceable = target(resolved) { return .replaceable(URL(fileURLWithPath: resolved).standardizedFileURL.path) }
            return target(resolved)
        case S_IFCHR, S_IFIFO: return .stream(path)
        case S_IFDIR: return .refused("is a directory, not a file")
        case S_IFSOCK: return .refused("is a socket, not a file")
        default: return .refused("is a block device, not a file; it is not replaced")
        }
    }

    /// Writes to a device or FIFO in place: no temporary file, no rename.
    private static func writeThrough(_ data: Data, to path: String, named name: String) throws(CassetteError) {
        // O_NONBLOCK: opening a FIFO nobody reads would wait for ever; it fails with ENXIO instead.
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let reason = errno == ENXIO ? "is a FIFO with no reader" : String(cString: strerror(errno))
            throw CassetteError.io(file: name, operation: "write", reason: reason)
        }
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        if let failure = data.withUnsafeBytes({ writeFully(fd, $0) }) {
            throw CassetteError.io(file: name, operation: "write", reason: failure)
        }
    }

    private static func replace(_ data: Data, at url: URL, named name: String) throws(CassetteError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CassetteError.io(file: directory.path, operation: "create the directory", reason: "\(error)")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CassetteError.io(file: name, operation: "create the temporary file \(temporary.lastPathComponent) to write",
                                   reason: String(cString: strerror(errno)))
        }
        var failure = data.withUnsafeBytes { writeFully(fd, $0) }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw CassetteError.io(file: name, operation: "write", reason: failure)
        }
    }

    /// A new, empty temporary file in `folder` (created if missing), open for writing, named `.<purpose>-<pid>-<random>.tmp`:
    /// where a large body is written piece by piece before ``move(_:to:)`` puts it in place.
    static func temporary(in folder: URL, purpose: String) throws -> (url: URL, handle: FileHandle) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(".\(purpose)-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CassetteError.io(file: url.path, operation: "create", reason: "cannot create the file")
        }
        return (url, try FileHandle(forWritingTo: url))
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
