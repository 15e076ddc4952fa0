import Foundation
import TapedeckCore

/// Stored responses in a directory, within a byte budget: one file per primary key (``CacheFileFormat``), named by
/// a 64-bit FNV-1a hash of the key, written to a temporary file and renamed into place (`AtomicFile`, without
/// `fsync`: a torn file fails its checksum and is dropped) so a reader never sees half a file. When a write passes
/// the budget, the least recently used files go; recency starts from the files' modification dates when the store
/// opens the directory.
///
/// A cache must not fail a request, so I/O errors make the store forget rather than throw: a file that cannot be
/// written is not stored, and one that cannot be read or decoded (truncated, corrupt, of another key or version) is
/// removed and counts as absent. One store per directory at a time.
struct DiskCacheStore: Sendable {
    static let fileExtension = "cache"
    /// Temporary files of the versions before `AtomicFile` wrote entries, removed when found.
    private static let oldTemporaryPrefix = ".tmp-"

    let directory: URL
    let capacity: Int
    /// Bytes of the files this store knows.
    private(set) var totalSize = 0

    private struct File {
        var size: Int
        var lastUse: UInt64
    }

    private var files: [String: File] = [:]
    private var clock: UInt64 = 0

    /// Opens `directory` (creating it when missing), indexes the entry files in it and removes leftover temporary
    /// files.
    init(directory: URL, capacity: Int) {
        self.directory = directory
        self.capacity = max(0, capacity)
        let manager = FileManager.default
        try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let contents = (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var found: [(name: String, size: Int, modified: Date)] = []
        for url in contents {
            let name = url.lastPathComponent
            if name.hasPrefix(DiskCacheStore.oldTemporaryPrefix)
                || AtomicFile.target(ofTemporary: name).map(DiskCacheStore.isEntryFileName) == true {
                try? manager.removeItem(at: url)
                continue
            }
            guard DiskCacheStore.isEntryFileName(name), let values = try? url.resourceValues(forKeys: Set(keys)) else { continue }
            found.append((name, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
        }
        for file in found.sorted(by: { $0.modified < $1.modified }) {
            clock += 1
            files[file.name] = File(size: file.size, lastUse: clock)
            totalSize += file.size
        }
        evict(keeping: nil)
    }

    /// The file name for `key`: 16 hex digits and `.cache`.
    static func fileName(for key: CacheKey) -> String {
        CacheFileFormat.checksum(Data(key.text.utf8)).paddedHex + "." + fileExtension
    }

    private static func isEntryFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && parts[1] == fileExtension && parts[0].utf8.count == 16
            && parts[0].utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Whether a file for `key` is indexed (without reading it).
    func contains(_ key: CacheKey) -> Bool {
        files[DiskCacheStore.fileName(for: key)] != nil
    }

    /// The variants stored for `key`, or `nil` when none is; a file that does not decode is removed.
    mutating func read(_ key: CacheKey) -> [CachedResponse]? {
        let name = DiskCacheStore.fileName(for: key)
        guard files[name] != nil else { return nil }
        let url = directory.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url), let decoded = CacheFileFormat.decode(data), decoded.key == key.text,
              !decoded.responses.isEmpty
        else {
            // Unreadable, or a hash collision with another key: either way this key has nothing usable here.
            removeFile(name)
            return nil
        }
        clock += 1
        files[name]?.lastUse = clock
        return decoded.responses
    }

    /// Stores `responses` as the variants of `key`, replacing what was there; an empty list, or a file larger than
    /// the whole budget, removes the key instead.
    mutating func write(_ responses: [CachedResponse], for key: CacheKey) {
        let name = DiskCacheStore.fileName(for: key)
        guard !responses.isEmpty else {
            removeFile(name)
            return
        }
        let data = CacheFileFormat.encode(key: key.text, responses)
        guard data.count <= capacity else {
            removeFile(name)
            return
        }
        do {
            try AtomicFile.write(data, to: directory.appendingPathComponent(name), creatingDirectory: false, syncing: false)
        } catch {
            removeFile(name)
            return
        }
        totalSize += data.count - (files[name]?.size ?? 0)
        clock += 1
        files[name] = File(size: data.count, lastUse: clock)
        evict(keeping: name)
    }

    /// Removes the file of `key`.
    mutating func remove(_ key: CacheKey) {
        removeFile(DiskCacheStore.fileName(for: key))
    }

    /// Removes every entry file this store knows.
    mutating func removeAll() {
        for name in Array(files.keys) { removeFile(name) }
    }

    private mutating func removeFile(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        if let file = files.removeValue(forKey: name) { totalSize -= file.size }
    }

    /// Removes least recently used files until the total fits the budget, never `kept`.
    private mutating func evict(keeping kept: String?) {
        while totalSize > capacity {
            guard let oldest = files.filter({ $0.key != kept }).min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
            removeFile(oldest.key)
        }
    }
}
