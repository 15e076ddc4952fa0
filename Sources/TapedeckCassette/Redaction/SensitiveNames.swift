import TapedeckCore

/// A set of secret names and name fragments, compiled for the question redaction asks of every header, query
/// parameter, form field and JSON member of every recorded or replayed request: is this name secret?
///
/// Matching ignores ASCII case. Exact names are grouped by byte length and compared in place; fragments are found
/// in one pass over the name, trying at each byte only the fragments that start with it. No string is built and nothing is
/// hashed, except for the rare name with non-ASCII bytes, which is lowercased first.
final class SensitiveNames: Sendable {
    /// Every name and fragment (lowercase UTF-8), one after another: the tables below hold ranges of it, so that a
    /// match walks flat arrays and copies out no inner array (each such copy was a retain and a release).
    private let bytes: [UInt8]
    /// The exact names' ranges in ``bytes``, grouped by length: those of length `n` are
    /// `names[nameGroups[n]..<nameGroups[n + 1]]`.
    private let names: [Range<Int>]
    private let nameGroups: [Int]
    /// The fragments' ranges in ``bytes``, any of which makes a name secret, grouped by first byte `b`:
    /// `fragments[fragmentGroups[b]..<fragmentGroups[b + 1]]`.
    private let fragments: [Range<Int>]
    private let fragmentGroups: [Int]

    init(names: some Sequence<String>, fragments: [String]) {
        var bytes: [UInt8] = []
        /// Appends each of `words` to `bytes` in the order of `key`, and returns their ranges and group starts.
        func grouped(_ words: [[UInt8]], groups: Int, key: ([UInt8]) -> Int) -> ([Range<Int>], [Int]) {
            var ranges: [Range<Int>] = [], starts = [0]
            for group in 0..<groups {
                for word in words where key(word) == group {
                    ranges.append(bytes.count..<(bytes.count + word.count))
                    bytes += word
                }
                starts.append(ranges.count)
            }
            return (ranges, starts)
        }
        let lowered = names.map { Array($0.lowercased().utf8) }
        (self.names, nameGroups) = grouped(lowered, groups: (lowered.map(\.count).max() ?? 0) + 1, key: \.count)
        let pieces = fragments.map { Array($0.lowercased().utf8) }.filter { !$0.isEmpty }
        (self.fragments, fragmentGroups) = grouped(pieces, groups: 256, key: { Int($0[0]) })
        self.bytes = bytes
    }

    /// How a name is secret: it is one of the names, or it only contains one of the fragments.
    enum Match { case none, name, fragment }

    /// Whether `name` is one of the names (``Match/name``), else whether it contains a fragment, ignoring case.
    func match(_ name: String) -> Match {
        Self.withLowercasedIfNotASCII(name) { match(bytes: $0) }
    }

    /// Whether `name` is one of the names or contains one of the fragments, ignoring case.
    func matches(_ name: String) -> Bool {
        match(name) != .none
    }

    /// Whether the UTF-8 `name` is one of the names or contains one of the fragments. ASCII letters match in either
    /// case; any other byte must already be lowercase (``matches(_:)`` lowercases a non-ASCII name first).
    func matches(bytes name: UnsafeBufferPointer<UInt8>) -> Bool {
        match(bytes: name) != .none
    }

    /// ``match(_:)`` of UTF-8 bytes, under the same rule as ``matches(bytes:)``.
    func match(bytes name: UnsafeBufferPointer<UInt8>) -> Match {
        bytes.withUnsafeBufferPointer { words in
            if name.count + 1 < nameGroups.count {
                for slot in nameGroups[name.count]..<nameGroups[name.count + 1]
                where Self.equal(name, from: 0, words, names[slot]) { return .name }
            }
            for start in name.indices {
                let first = Int(name[start].asciiLowercased)
                for slot in fragmentGroups[first]..<fragmentGroups[first + 1] {
                    let fragment = fragments[slot]
                    if fragment.count <= name.count - start, Self.equal(name, from: start + 1, words, fragment.dropFirst()) { return .fragment }
                }
            }
            return .none
        }
    }

    /// `body` of `name`'s UTF-8 bytes, lowercased first only when a byte is not ASCII (ASCII letters are compared
    /// ignoring case in place).
    private static func withLowercasedIfNotASCII<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let answer = name.utf8.withContiguousStorageIfAvailable { bytes -> Result? in
            bytes.contains { $0 >= 0x80 } ? nil : body(bytes)
        }
        if let answer = answer ?? nil { return answer }
        var copy = name.utf8.contains { $0 >= 0x80 } ? name.lowercased() : name
        return copy.withUTF8 { body($0) }
    }

    /// Whether `name` names a place in a sequence rather than a credential: pagination, progress, continuation and
    /// sync tokens (`nextPageToken`, `page_token`, `progressToken`, `continuationToken`, `syncToken`), which a server
    /// hands out to be sent back and which grant nothing. Its words (split at `_`, `-`, `.`, spaces and where a
    /// lowercase letter meets an uppercase one, compared ignoring case) are `token` or `tokens` and at least one word
    /// of ``positionWords``, with an `x` allowed first (`X-Next-Page-Token`). Any other word keeps it a secret:
    /// `access_token`, `csrf_token`, `session_token`, `next_access_token`.
    static func namesAPosition(_ name: String) -> Bool {
        var words: [String] = []
        var word = ""
        var previousIsLower = false
        for character in name {
            if character == "_" || character == "-" || character == "." || character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
                previousIsLower = false
                continue
            }
            if character.isUppercase, previousIsLower, !word.isEmpty {
                words.append(word)
                word = ""
            }
            previousIsLower = character.isLowercase
            word.append(contentsOf: character.lowercased())
        }
        if !word.isEmpty { words.append(word) }
        if words.first == "x" { words.removeFirst() }
        var sawToken = false, sawPosition = false
        for word in words {
            if word == "token" || word == "tokens" { sawToken = true }
            else if positionWords.contains(word) { sawPosition = true }
            else { return false }
        }
        return sawToken && sawPosition
    }

    /// The words that make a token a place in a sequence (``namesAPosition(_:)``).
    static let positionWords: Set<String> = [
        "page", "pagination", "progress", "continuation", "cursor", "next", "prev", "previous", "start", "resume", "sync",
    ]

    /// Whether `name` from `start` on begins with `words[range]` (lowercase), ASCII letters of `name` in either case.
    private static func equal(_ name: UnsafeBufferPointer<UInt8>, from start: Int, _ words: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var position = start
        for index in range {
            if name[position].asciiLowercased != words[index] { return false }
            position += 1
        }
        return true
    }
}
