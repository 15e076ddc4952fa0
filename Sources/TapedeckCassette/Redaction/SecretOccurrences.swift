import Foundation
import TapedeckCore

/// Which of many secrets occur in a text, found in one pass over its bytes, so that scrubbing a text of thousands of
/// known secrets (an export whose every record carried a token) costs one scan rather than one per secret.
///
/// Every spelling ``Redaction/scrub(_:secrets:placeholder:)`` replaces is indexed by its first eight bytes: the secret
/// as written, with `/` escaped as in JSON, and percent-encoded. The scan reads the text eight bytes at a time at
/// each position, and a filter of at least 16 bits per spelling turns away almost every position before the index
/// is asked. Spellings
/// shorter than eight bytes are checked one by one (``Redaction/mayHoldCopy(_:of:)``), as before.
///
/// ```swift
/// SecretOccurrences(["tok-1234567890", "pw-abcdefgh"]).present(in: "echo tok-1234567890")   // ["tok-1234567890"]
/// ```
struct SecretOccurrences: Sendable {
    private static let window = 8
    /// The secrets, in the order they were added.
    private(set) var secrets: [String] = []
    /// Spellings by their first eight bytes: the spelling's bytes and the index of its secret.
    private var index: [UInt64: [(bytes: [UInt8], secret: Int)]] = [:]
    /// One bit per hash of a first-eight-bytes key: at least 16 bits per key, so that about one position in 16 that
    /// holds no spelling gets past it.
    private var filter = [UInt64](repeating: 0, count: 1 << 10)
    private var filterBits = 16
    /// Secrets with a spelling shorter than the window.
    private var short: [Int] = []
    /// The length in bytes of the longest spelling.
    private(set) var longestSpelling = 0

    init(_ secrets: [String] = []) {
        add(secrets)
    }

    /// Adds secrets to look for (each once: a caller that may repeat one keeps its own set).
    mutating func add(_ newSecrets: [String]) {
        for secret in newSecrets {
            let position = secrets.count
            secrets.append(secret)
            for bytes in Self.spellings(of: secret) {
                longestSpelling = max(longestSpelling, bytes.count)
                guard bytes.count >= Self.window else {
                    if short.last != position { short.append(position) }
                    continue
                }
                let key = bytes.withUnsafeBufferPointer { Self.key($0.baseAddress!) }
                index[key, default: []].append((bytes, position))
                setBit(for: key)
            }
        }
        guard index.count * 16 > 1 << filterBits else { return }
        // Grown past 16 bits per key: a larger filter, filled again.
        while index.count * 16 > 1 << filterBits { filterBits += 1 }
        filter = [UInt64](repeating: 0, count: 1 << (filterBits - 6))
        for key in index.keys { setBit(for: key) }
    }

    /// The bytes of each spelling of `secret` that ``Redaction/scrub(_:secrets:placeholder:)`` replaces: as written,
    /// with `/` escaped, percent-encoded (``PlaceholderSecrets/percentEncoded(_:)``).
    static func spellings(of secret: String) -> [[UInt8]] {
        let bytes = Array(secret.utf8)
        var spellings = [bytes]
        if bytes.contains(UInt8(ascii: "/")) { spellings.append(Array(secret.replacingOccurrences(of: "/", with: "\\/").utf8)) }
        let encoded = Array(PlaceholderSecrets.percentEncoded(secret).utf8)
        if encoded != bytes { spellings.append(encoded) }
        return spellings
    }

    private mutating func setBit(for key: UInt64) {
        let slot = slot(key)
        filter[slot >> 6] |= 1 << UInt64(slot & 63)
    }

    /// The secrets that occur in `text` in any spelling (or may, for a short one), in the order they were added.
    func present(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { present(in: $0) }
    }

    func present(in text: UnsafeBufferPointer<UInt8>) -> [String] {
        guard !secrets.isEmpty else { return [] }
        var found = Set<Int>()
        if let base = text.baseAddress, text.count >= Self.window {
            for start in 0...(text.count - Self.window) {
                let key = Self.key(base + start)
                let slot = slot(key)
                guard filter[slot >> 6] & (1 << UInt64(slot & 63)) != 0, let spellings = index[key] else { continue }
                for spelling in spellings where !found.contains(spelling.secret) && spelling.bytes.count <= text.count - start {
                    if memcmp(base + start, spelling.bytes, spelling.bytes.count) == 0 { found.insert(spelling.secret) }
                }
            }
        }
        if !short.isEmpty {
            let whole = String(decoding: text, as: UTF8.self)
            for position in short where !found.contains(position) && Redaction.mayHoldCopy(whole, of: secrets[position]) { found.insert(position) }
        }
        return found.sorted().map { secrets[$0] }
    }

    private static func key(_ bytes: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)
    }

    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - filterBits))
    }
}
