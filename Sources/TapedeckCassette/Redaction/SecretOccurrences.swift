import Foundation
import TapedeckCore

/// Which of many secrets occur in a text, found in one pass over its bytes, so that scrubbing a text of thousands of
/// known secrets (an export whose every record carried a token) costs one scan rather than one per secret. It is also
/// the set of those secrets: ``insert(_:)`` says whether one is new.
///
/// Every spelling ``Redaction/scrub(_:secrets:placeholder:)`` replaces is indexed: the secret as written, with `/`
/// escaped as in JSON, and percent-encoded. The scan reads eight bytes (a *window*) at a position and asks a filter of
/// two bits per window whether a spelling may hold those bytes; only then is the exact table asked, by the window that
/// starts the spelling. When every indexed spelling has at least ``window`` + ``stride`` − 1 bytes (tokens, keys, session
/// ids), the filter knows each spelling's first ``stride`` windows and the scan reads one position in ``stride``: a copy
/// anywhere has one of its first windows at such a position. A shorter spelling (8 to 10 bytes) makes the scan read every
/// position. Spellings shorter than eight bytes are checked one by one (``Redaction/mayHoldCopy(_:of:)``), as before.
///
/// ```swift
/// SecretOccurrences(["tok-1234567890", "pw-abcdefgh"]).present(in: "echo tok-1234567890")   // ["tok-1234567890"]
/// ```
struct SecretOccurrences: Sendable {
    /// The bytes read at a position of the text.
    static let window = 8
    /// How many positions the scan moves at a time when every spelling is long enough. A longer stride reads fewer
    /// positions but puts more windows of each spelling in the filter: 4 measured best with 350,000 secrets (8 made
    /// adding them cost more than the scan saved; 1 and 2 scanned slower).
    static let stride = 4

    /// A slot of the exact table; `head` is -1 for an empty one.
    private struct Slot {
        var key: UInt64 = 0
        var head: Int32 = -1
    }

    /// A spelling's bytes in ``arena``, its secret, and the next spelling whose first window is the same.
    private struct Spelling {
        var start: Int
        var length: Int32
        var secret: Int32
        var next: Int32
    }

    /// The secrets, in the order they were added.
    private(set) var secrets: [String] = []
    /// The length in bytes of the longest spelling.
    private(set) var longestSpelling = 0
    private var arena: [UInt8] = []
    private var spellings: [Spelling] = []
    /// The exact table, open addressing: a slot holds the first window of a spelling and the first spelling that starts
    /// with it, side by side (one memory access a probe).
    private var slots: [Slot] = []
    private var tableCount = 0
    /// Two bits, in one word, per window the filter knows, of `1 << filterBits` bits: a window costs one memory access.
    private var filter: [UInt64] = []
    private var filterBits = 0
    private var filterCount = 0
    /// Whether some spelling is too short for the scan to skip positions.
    private var hasMediumSpelling = false
    /// Secrets with a spelling shorter than the window, and the short secrets themselves (the table does not hold them).
    private var short: [Int] = []
    private var shortSecrets: Set<String> = []

    init(_ secrets: [String] = []) {
        add(secrets)
    }

    var isEmpty: Bool { secrets.isEmpty }

    /// Adds secrets to look for; one it holds already is skipped. Returns those it did not hold.
    @discardableResult
    mutating func add(_ newSecrets: [String]) -> [String] {
        newSecrets.filter { insert($0) }
    }

    /// Adds `secret` unless it holds it already; returns whether it was new.
    @discardableResult
    mutating func insert(_ secret: String) -> Bool {
        if secret.utf8.count < Self.window {
            guard !shortSecrets.contains(secret) else { return false }
        } else {
            var bytes = secret
            guard bytes.withUTF8({ find(exactly: $0) }) == nil else { return false }
        }
        let position = secrets.count
        secrets.append(secret)
        if secret.utf8.count < Self.window { shortSecrets.insert(secret) }
        Self.forEachSpelling(of: secret) { bytes in index(bytes, secret: position) }
        return true
    }

    /// Calls `body` with the bytes of each spelling of `secret` that ``Redaction/scrub(_:secrets:placeholder:)``
    /// replaces: as written, with `/` escaped, percent-encoded (``PlaceholderSecrets/percentEncoded(_:)``).
    static func forEachSpelling(of secret: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var secret = secret
        secret.withUTF8 { bytes in
            body(bytes)
            var slashes = 0, allAlphanumeric = true, isASCII = true
            for byte in bytes {
                if byte == UInt8(ascii: "/") { slashes += 1 }
                if !byte.isASCIIAlphanumeric { allAlphanumeric = false }
                if byte >= 0x80 { isASCII = false }
            }
            if slashes > 0 {
                var escaped: [UInt8] = []
                escaped.reserveCapacity(bytes.count + slashes)
                for byte in bytes {
                    if byte == UInt8(ascii: "/") { escaped.append(UInt8(ascii: "\\")) }
                    escaped.append(byte)
                }
                escaped.withUnsafeBufferPointer(body)
            }
            guard !allAlphanumeric else { return }  // percent-encoding changes nothing
            guard isASCII else {
                var encoded = PlaceholderSecrets.percentEncoded(String(decoding: bytes, as: UTF8.self))
                return encoded.withUTF8(body)
            }
            PlaceholderSecrets.percentEncodedASCII(bytes).withUnsafeBufferPointer(body)
        }
    }

    private mutating func index(_ bytes: UnsafeBufferPointer<UInt8>, secret: Int) {
        longestSpelling = max(longestSpelling, bytes.count)
        guard bytes.count >= Self.window, let base = bytes.baseAddress else {
            if short.last != secret { short.append(secret) }
            return
        }
        let spelling = Int32(spellings.count)
        spellings.append(Spelling(start: arena.count, length: Int32(bytes.count), secret: Int32(secret), next: -1))
        arena.append(contentsOf: bytes)
        let key = Self.key(base)
        if (tableCount + 1) * 2 > slots.count { growTable() }
        var slot = Self.hash(key, bits: slots.count.trailingZeroBitCount)
        while slots[slot].head >= 0 && slots[slot].key != key { slot = (slot + 1) & (slots.count - 1) }
        if slots[slot].head < 0 {
            slots[slot].key = key
            tableCount += 1
        } else {
            spellings[Int(spelling)].next = slots[slot].head
        }
        slots[slot].head = spelling
        if !hasMediumSpelling && bytes.count < Self.window + Self.stride - 1 {
            hasMediumSpelling = true
        }
        let windows = Self.filteredWindows(of: bytes.count)
        if (filterCount + windows) * 16 > 1 << filterBits {
            growFilter(toHold: filterCount + windows)
        } else {
            for offset in 0..<windows { setBits(Self.key(base + offset)) }
            filterCount += windows
        }
    }

    /// How many of a spelling's windows, from its first, the filter knows.
    private static func filteredWindows(of length: Int) -> Int {
        length >= window + stride - 1 ? stride : 1
    }

    private mutating func growTable() {
        let capacity = max(64, slots.count * 2)
        let old = slots
        slots = [Slot](repeating: Slot(), count: capacity)
        for filled in old where filled.head >= 0 {
            var slot = Self.hash(filled.key, bits: capacity.trailingZeroBitCount)
            while slots[slot].head >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = filled
        }
    }

    /// A filter of at least 16 bits per window, filled again from every spelling.
    private mutating func growFilter(toHold count: Int) {
        filterBits = max(filterBits, 10)
        while count * 16 > 1 << filterBits { filterBits += 1 }
        filter = [UInt64](repeating: 0, count: 1 << (filterBits - 6))
        filterCount = 0
        arena.withUnsafeBufferPointer { arena in
            for spelling in spellings {
                let windows = Self.filteredWindows(of: Int(spelling.length))
                for offset in 0..<windows { setBits(Self.key(arena.baseAddress! + spelling.start + offset)) }
                filterCount += windows
            }
        }
    }

    private mutating func setBits(_ key: UInt64) {
        let (word, bits) = Self.filterSlot(key, bits: filterBits)
        filter[word] |= bits
    }

    /// The secret whose as-written spelling is exactly `bytes` (eight bytes or more).
    private func find(exactly bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, !slots.isEmpty else { return nil }
        var found: Int?
        arena.withUnsafeBufferPointer { arena in
            forEachSpelling(startingWith: Self.key(base)) { spelling in
                guard Int(spelling.length) == bytes.count, memcmp(arena.baseAddress! + spelling.start, base, bytes.count) == 0,
                      secrets[Int(spelling.secret)].utf8.count == bytes.count else { return true }
                found = Int(spelling.secret)
                return false
            }
        }
        return found
    }

    /// Calls `body` with each spelling whose first window is `key`, until it returns false.
    private func forEachSpelling(startingWith key: UInt64, _ body: (Spelling) -> Bool) {
        var slot = Self.hash(key, bits: slots.count.trailingZeroBitCount)
        while slots[slot].head >= 0 {
            if slots[slot].key == key {
                var next = slots[slot].head
                while next >= 0 {
                    let spelling = spellings[Int(next)]
                    guard body(spelling) else { return }
                    next = spelling.next
                }
                return
            }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// The secrets that occur in `text` in any spelling (or may, for a short one), in the order they were added.
    func present(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { present(in: $0) }
    }

    func present(in text: UnsafeBufferPointer<UInt8>) -> [String] {
        // Usually none, or a few: a list, no set to allocate, until there are many.
        var few: [Int] = []
        var many: Set<Int>?
        scan(text) { secret in
            if many != nil {
                many!.insert(secret)
            } else if !few.contains(secret) {
                few.append(secret)
                if few.count > 16 { many = Set(few) }
            }
            return true
        }
        guard !few.isEmpty else { return [] }
        return (many.map { Array($0) } ?? few).sorted().map { secrets[$0] }
    }

    /// Whether any secret occurs in `text` (or may, for a short one): the scan stops at the first.
    func occursAny(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        var any = false
        scan(text) { _ in any = true; return false }
        return any
    }

    /// Calls `found` with the secret of each copy in `text` (a secret may come more than once) until it returns false.
    private func scan(_ text: UnsafeBufferPointer<UInt8>, found: (Int) -> Bool) {
        guard !secrets.isEmpty else { return }
        if let base = text.baseAddress, text.count >= Self.window, !slots.isEmpty {
            let step = hasMediumSpelling ? 1 : Self.stride
            let bits = filterBits
            let stop = arena.withUnsafeBufferPointer { arena in
                filter.withUnsafeBufferPointer { filter in
                    var position = 0
                    let last = text.count - Self.window
                    while position <= last {
                        let (word, wanted) = Self.filterSlot(Self.key(base + position), bits: bits)
                        if filter[word] & wanted == wanted {
                            // Which spelling's window this is: each start it may belong to.
                            for start in Swift.stride(from: position, through: max(0, position - step + 1), by: -1) {
                                var stop = false
                                forEachSpelling(startingWith: Self.key(base + start)) { spelling in
                                    let length = Int(spelling.length)
                                    guard length <= text.count - start, memcmp(base + start, arena.baseAddress! + spelling.start, length) == 0 else { return true }
                                    stop = !found(Int(spelling.secret))
                                    return !stop
                                }
                                if stop { return true }
                            }
                        }
                        position += step
                    }
                    return false
                }
            }
            if stop { return }
        }
        guard !short.isEmpty else { return }
        let whole = String(decoding: text, as: UTF8.self)
        for position in short where Redaction.mayHoldCopy(whole, of: secrets[position]) {
            guard found(position) else { return }
        }
    }

    private static func key(_ bytes: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self)
    }

    private static func hash(_ key: UInt64, bits: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The word of a filter of `1 << bits` bits that holds `key`'s two bits, and those bits.
    private static func filterSlot(_ key: UInt64, bits: Int) -> (word: Int, bits: UInt64) {
        let word = Int(truncatingIfNeeded: (key &* 0xC2B2_AE3D_27D4_EB4F) >> UInt64(70 - bits))
        let bit = (key &* 0x1656_67B1_9E37_79F9) >> 52  // the high bits: a product's low bits see only the key's low bits
        return (word, 1 << (bit & 63) | 1 << (bit >> 6))
    }
}
