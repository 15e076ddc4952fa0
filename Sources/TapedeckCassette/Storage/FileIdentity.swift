import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One version of a file on disk: its device and inode (an atomic save by anyone gives a new inode), its size and
/// its modification time to the nanosecond. A recorder remembers the identity of the cassette it last read or
/// wrote, and compares before writing again, so that an edit by someone else is found instead of overwritten.
struct FileIdentity: Equatable, Sendable, CustomStringConvertible {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec

    /// The identity of the file at `path` now, or `nil` when nothing is there (or a folder on the way is missing).
    static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim)
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }

    /// `1234 bytes, modified 2026-11-23T14:01:02.123Z`
    var description: String {
        let date = Date(timeIntervalSince1970: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9)
        return "\(size) bytes, modified \(Timestamp.format(date))"
    }

    /// How the file changed from `old` (what a recorder last saw, `nil` for no file) to `new` (`nil`: gone), in words.
    static func change(from old: FileIdentity?, to new: FileIdentity?) -> String {
        switch (old, new) {
        case (_, nil): return "was removed (or the folder it is in)"
        case (nil, let new?): return "was created by someone else (\(new))"
        case (let old?, let new?) where old.inode != new.inode || old.device != new.device:
            return "was replaced by someone else (it was \(old); it is now \(new))"
        case (let old?, let new?): return "was edited by someone else (it was \(old); it is now \(new))"
        }
    }
}
