import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
///
/// ```swift
/// try AtomicFile.write(Data(json.utf8), to: URL(fileURLWithPath: "session.json"))
/// ```
package enum AtomicFile {
    /// Why a write failed: "could not OPERATION PATH: REASON".
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The file (or directory) the operation was about.
        package var path: String
        /// What could not be done, e.g. `write`, `create the directory`.
        package var operation: String
        /// Why, in words.
        package var reason: String

        /// "could not OPERATION PATH: REASON".
        package var description: String { "could not \(operation) \(path): \(reason)" }
    }

    /// What is at the path a write names.
    enum Target: Equatable {
        /// Nothing, or a regular file: written atomically at this path.
        case replaceable(String)
        /// A character device or a FIFO: written through.
        case stream(String)
        /// Anything else: refused with this reason.
        case refused(String)
    }

    /// Writes `data` to `url`. A missing directory is created unless `creatingDirectory` is false; a temporary file
    /// is flushed to disk before the rename unless `syncing` is false (for a cache, whose torn file is detected and
    /// dropped).
    package static func write(_ data: Data, to url: URL, creatingDirectory: Bool = true, syncing: Bool = true)
        throws(Failure) {
        switch target(url.path) {
        case .refused(let reason):
            throw Failure(path: url.path, operation: "write", reason: reason)
        case .stream(let path):
            try writeThrough(data, to: path, named: url.path)
        case .replaceable(let path):
            try replace(data, at: URL(fileURLWithPath: path), named: url.path, creatingDirectory: creatingDirectory,
                        syncing: syncing)
        }
    }

    /// The name of the file that `name`, a temporary file of ``write(_:to:creatingDirectory:syncing:)``
    /// (`.NAME.PID.RANDOM.tmp`), was to become; `nil` for any other name. For a directory's owner that removes what
    /// a crash left behind.
    package static func target(ofTemporary name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        let isNumber = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy(\.isASCIIDigit) }
        guard parts.count >= 3, parts.suffix(2).allSatisfy(isNumber) else { return nil }
        return parts.dropLast(2).joined(separator: ".")
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
    private static func writeThrough(_ data: Data, to path: String, named name: String) throws(Failure) {
        // O_NONBLOCK: opening a FIFO nobody reads would wait for ever; it fails with ENXIO instead.
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let reason = errno == ENXIO ? "is a FIFO with no reader" : String(cString: strerror(errno))
            throw Failure(path: name, operation: "write", reason: reason)
        }
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        if let code = data.withUnsafeBytes({ writeFully(fd, $0) }) {
            throw Failure(path: name, operation: "write", reason: String(cString: strerror(code)))
        }
    }

    private static func replace(_ data: Data, at url: URL, named name: String, creatingDirectory: Bool,
                                syncing: Bool) throws(Failure) {
        let directory = url.deletingLastPathComponent()
        if creatingDirectory {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw Failure(path: directory.path, operation: "create the directory", reason: "\(error)")
            }
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Failure(path: name, operation: "create the temporary file \(temporary.lastPathComponent) to write",
                          reason: String(cString: strerror(errno)))
        }
        var failure = data.withUnsafeBytes { writeFully(fd, $0) }
        if failure == nil, syncing, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = errno }
        if let failure {
            unlink(temporary.path)
            throw Failure(path: name, operation: "write", reason: String(cString: strerror(failure)))
        }
    }

    /// A new, empty temporary file in `folder` (created if missing), open for writing, named `.<purpose>-<pid>-<random>.tmp`:
    /// where a large body is written piece by piece before ``move(_:to:)`` puts it in place.
    package static func temporary(in folder: URL, purpose: String) throws -> (url: URL, handle: FileHandle) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(".\(purpose)-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw Failure(path: url.path, operation: "create", reason: "cannot create the file")
        }
        return (url, try FileHandle(forWritingTo: url))
    }

    /// Moves a finished temporary file into place.
    package static func move(_ temporary: URL, to url: URL) throws(Failure) {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw Failure(path: url.path, operation: "move into place", reason: reason)
        }
    }
}
