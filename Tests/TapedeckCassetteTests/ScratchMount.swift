import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A mount made for one test (a size-limited tmpfs, or a folder bind-mounted read-only onto itself), so that a fault
/// is a real refusal by the kernel: permission bits do not stop root, a full or read-only file system does.
/// ``unmount()`` detaches it even while files under it are open.
struct ScratchMount {
    /// Why a mount could not be made.
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    let path: String

    /// Mounts a tmpfs of `bytes` at `directory` (which must exist).
    static func tmpfs(at directory: URL, bytes: Int) throws -> ScratchMount {
        guard mount("tapedeck-test", directory.path, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else {
            throw Refused(description: "mount -t tmpfs at \(directory.path): \(String(cString: strerror(errno)))")
        }
        return ScratchMount(path: directory.path)
    }

    /// Bind-mounts `directory` onto itself read-only: files opened for writing before stay writable (they belong
    /// to the mount below), anything opened, created or renamed through the path afterwards is refused with EROFS.
    static func readOnly(_ directory: URL) throws -> ScratchMount {
        guard mount(directory.path, directory.path, nil, UInt(MS_BIND), nil) == 0 else {
            throw Refused(description: "mount --bind \(directory.path): \(String(cString: strerror(errno)))")
        }
        let mounted = ScratchMount(path: directory.path)
        guard mount(nil, directory.path, nil, UInt(MS_BIND | MS_REMOUNT | MS_RDONLY), nil) == 0 else {
            let reason = String(cString: strerror(errno))
            mounted.unmount()
            throw Refused(description: "mount -o remount,bind,ro \(directory.path): \(reason)")
        }
        return mounted
    }

    func unmount() {
        _ = umount2(path, Int32(MNT_DETACH))
    }

    /// Whether this process may mount (root with CAP_SYS_ADMIN, outside a container that forbids it), found once by
    /// mounting a tiny tmpfs.
    static let isPermitted: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-mount-probe-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard let mounted = try? tmpfs(at: probe, bytes: 4096) else { return false }
        mounted.unmount()
        return true
    }()
}
