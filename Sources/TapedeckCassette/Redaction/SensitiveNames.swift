import TapedeckCore

/// A set of secret names and name fragments, compiled for the question redaction asks of every header, query
/// parameter, form field and JSON member of every recorded or replayed request: is this name secret?
///
/// Matching ignores ASCII case. Exact names are grouped by byte length and compared in place; fragments are found
/// in one pass over the name, trying at each byte only the fragments that start with it. No string is built and nothing is
/// hashed, except for the rare name with non-ASCII bytes, which is lowercased first.
final class SensitiveNames: Sendable {
    /// Exact names (lowercase UTF-8) indexed by their length.
    private let namesByLength: [[[UInt8]]]
    /// Fragments (lowercase UTF-8), any of which makes a name secret, indexed by their first byte.
    private let fragmentsByFirstByte: [[[UInt8]]]

    init(names: some Sequence<String>, fragments: [String]) {
        let lowered = names.map { Array($0.lowercased().utf8) }
        var byLength = Array(repeating: [[UInt8]](), count: (lowered.map(\.count).max() ?? 0) + 1)
        for name in lowered { byLength[name.count].append(name) }
        namesByLength = byLength
        var byFirstByte = Array(repeating: [[UInt8]](), count: 256)
        for fragment in fragments.map({ Array($0.lowercased().utf8) }) where !fragment.isEmpty {
            byFirstByte[Int(fragment[0])].append(fragment)
        }
        fragmentsByFirstByte = byFirstByte
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
        if name.count < namesByLength.count {
            for candidate in namesByLength[name.count] where Self.equal(name, from: 0, candidate[...]) { return .name }
        }
        for start in name.indices {
            for fragment in fragmentsByFirstByte[Int(name[start].asciiLowercased)]
            where fragment.count <= name.count - start && Self.equal(name, from: start + 1, fragment[1...]) {
                return .fragment
            }
        }
        return .none
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

    /// Whether `name[start...]` begins with `lowercase`, ignoring the case of ASCII letters in `name`.
    private static func equal(_ name: UnsafeBufferPointer<UInt8>, from start: Int, _ lowercase: ArraySlice<UInt8>) -> Bool {
        var position = start
        for byte in lowercase {
            if name[position].asciiLowercased != byte { return false }
            position += 1
        }
        return true
    }
}
