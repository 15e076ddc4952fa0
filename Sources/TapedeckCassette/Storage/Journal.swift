import Foundation
#if canImport(Glibc)
import Glibc
import TapedeckCore
#endif

/// An append-only file of JSON lines, one per recorded interaction, so that each recording is on disk as soon as
/// it completes without rewriting the cassette. Opening one empties it.
///
/// Lines are copied into a shared memory mapping of the file: that puts them in the kernel's page cache, where the
/// death of the process cannot take them, without a system call per line. The file grows a chunk at a time, so
/// until the journal is closed its unused tail is zero bytes; readers ignore it as they ignore a line cut short by
/// a crash (no newline ends it). Closing cuts the file to its lines.
final class Journal: Sendable {
    private struct Mapping {
        var base: UnsafeMutableRawPointer?
        var capacity = 0
        var length = 0
    }

    let path: String
    private let descriptor: Int32
    private let mapping: Locked<Mapping>
    /// The file grows by at least this much at a time.
    static let chunk = 1 << 20

    init(path: String) throws(CassetteError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CassetteError.io(file: path, operation: "open the journal", reason: String(cString: strerror(errno))) }
        descriptor = fd
        mapping = Locked(Mapping())
    }

    deinit {
        mapping.withLock { mapping in
            if let base = mapping.base { munmap(base, mapping.capacity) }
            _ = ftruncate(descriptor, off_t(mapping.length))
        }
        close(descriptor)
    }

    func append(_ line: [UInt8]) throws(CassetteError) {
        try mapping.withLock { (mapping: inout Mapping) throws(CassetteError) in
            if mapping.length + line.count > mapping.capacity {
                try grow(&mapping, toHold: mapping.length + line.count)
            }
            line.withUnsafeBytes { bytes in
                guard let source = bytes.baseAddress else { return }
                (mapping.base! + mapping.length).copyMemory(from: source, byteCount: bytes.count)
            }
            mapping.length += line.count
        }
    }

    func truncate() throws(CassetteError) {
        try mapping.withLock { (mapping: inout Mapping) throws(CassetteError) in
            if let base = mapping.base { munmap(base, mapping.capacity) }
            mapping = Mapping()
            guard ftruncate(descriptor, 0) == 0 else { throw failure("truncate") }
        }
    }

    /// Lengthens the file (the new part reads as zeros) and maps all of it. The space is allocated on disk now, so
    /// that a full disk is this error rather than a fault when a line is copied in.
    private func grow(_ mapping: inout Mapping, toHold needed: Int) throws(CassetteError) {
        let capacity = max(mapping.capacity * 2, (needed / Self.chunk + 1) * Self.chunk)
        if let base = mapping.base { munmap(base, mapping.capacity) }
        mapping.base = nil
        mapping.capacity = 0
        let allocated = posix_fallocate(descriptor, 0, off_t(capacity))
        guard allocated == 0 else {
            _ = ftruncate(descriptor, off_t(mapping.length))
            throw CassetteError.io(file: path, operation: "grow the journal", reason: String(cString: strerror(allocated)))
        }
        let base = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let base, base != MAP_FAILED else {
            let error = failure("map")
            _ = ftruncate(descriptor, off_t(mapping.length))
            throw error
        }
        mapping.base = base
        mapping.capacity = capacity
    }

    private func failure(_ operation: String) -> CassetteError {
        .io(file: path, operation: "\(operation) the journal", reason: String(cString: strerror(errno)))
    }
}
