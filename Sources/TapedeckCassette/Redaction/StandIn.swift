import TapedeckCore

/// The stable replacement ``Redaction`` writes for a secret when its cassette has a ``RedactionSalt``:
/// `REDACTED-` and twelve letters and digits, the same for the same secret everywhere in the cassette.
///
/// A stand-in keeps a cassette's state working in replay: a cookie whose value became a stand-in is stored by the
/// client, sent back, and matches the recorded request that carried the same stand-in; a token from a login body
/// comes back in an `Authorization` header the same way. It is made of URL-safe characters only, so it reads the same
/// in a header, a cookie, a query, a form or JSON, percent-encoded or not.
///
/// The twelve characters hold 60 bits: 48 bits of SipHash-2-4 of the secret under the salt, and a 12-bit check of
/// those under the salt, so a stand-in edited by hand (or one from another cassette) is found when the cassette is
/// loaded. The secret cannot be read back from it; someone who holds the cassette and guesses a weak secret (a short
/// password) can confirm the guess, as with any keyed hash whose key is stored beside it, so give such values a
/// fixed replacement with a ``RedactionFilter`` when that matters.
///
/// ```swift
/// let salt = RedactionSalt.random()
/// StandIn.make(for: "eyJhbGciOi…", salt: salt)      // "REDACTED-7k2m9q4x1c3v", every time for this salt
/// ```
public enum StandIn {
    /// What every stand-in starts with.
    public static let prefix = "REDACTED-"
    /// The number of characters after ``prefix``.
    static let codeLength = 12
    /// Crockford's base-32 digits in lower case: no `i`, `l`, `o` or `u`, so nothing reads as another character.
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    private static let prefixBytes = Array(prefix.utf8)
    /// The value of each byte as a digit of ``alphabet``, or `0xFF` for a byte that is none.
    private static let digits: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// The stand-in of `secret` under `salt`.
    public static func make(for secret: some StringProtocol, salt: RedactionSalt) -> String {
        // Hashed in place when the text is contiguous (a native string or a slice of one), copied only otherwise;
        // the result is written straight into the new string's storage: one allocation per stand-in.
        let hash = (secret.utf8.withContiguousStorageIfAvailable { SipHash24.hash(UnsafeRawBufferPointer($0), key: salt.key) }
            ?? Array(secret.utf8).withUnsafeBytes { SipHash24.hash($0, key: salt.key) }) >> 16
        let code = hash << 12 | check(hash, salt: salt)
        return String(unsafeUninitializedCapacity: prefixBytes.count + codeLength) { buffer in
            _ = buffer.initialize(fromContentsOf: prefixBytes)
            for position in 0..<codeLength {
                buffer[prefixBytes.count + position] = alphabet[Int((code >> UInt64((codeLength - 1 - position) * 5)) & 31)]
            }
            return prefixBytes.count + codeLength
        }
    }

    /// Whether `text` is exactly one stand-in (whatever its salt).
    public static func isStandIn(_ text: some StringProtocol) -> Bool {
        guard text.utf8.count == prefixBytes.count + codeLength else { return false }  // most values, with no copy
        let bytes = Array(text.utf8)
        return bytes.count == prefixBytes.count + codeLength && token(in: bytes[...], at: 0) != nil
    }

    /// Whether `code` (a stand-in) was made under `salt`.
    static func verifies(_ standIn: some StringProtocol, salt: RedactionSalt) -> Bool {
        guard let code = code(of: Array(standIn.utf8)[...]) else { return false }
        return check(code >> 12, salt: salt) == code & 0xFFF
    }

    /// The 12-bit check of a 48-bit hash, under the salt with its halves swapped (a second key).
    private static func check(_ hash: UInt64, salt: RedactionSalt) -> UInt64 {
        var message = hash.littleEndian
        return withUnsafeBytes(of: &message) { SipHash24.hash(UnsafeRawBufferPointer(rebasing: $0[0..<6]), key: (salt.key.1, salt.key.0)) } >> 52
    }

    /// The 60-bit value of a stand-in's characters, or `nil` when they are not one.
    private static func code(of bytes: ArraySlice<UInt8>) -> UInt64? {
        guard bytes.count == prefixBytes.count + codeLength, bytes.starts(with: prefixBytes) else { return nil }
        var code: UInt64 = 0
        for byte in bytes.dropFirst(prefixBytes.count) {
            let digit = digits[Int(byte)]
            guard digit != 0xFF else { return nil }
            code = code << 5 | UInt64(digit)
        }
        return code
    }

    /// The stand-in starting at `offset` of `bytes`, when one does and it stands alone (no letter or digit right
    /// after it).
    private static func token(in bytes: ArraySlice<UInt8>, at offset: Int) -> Range<Int>? {
        let start = bytes.startIndex + offset
        let end = start + prefixBytes.count + codeLength
        guard end <= bytes.endIndex, code(of: bytes[start..<end]) != nil else { return nil }
        if end < bytes.endIndex, bytes[end].isASCIIAlphanumeric { return nil }
        return start..<end
    }

    /// Every stand-in in `text`, in order.
    public static func all(in text: some StringProtocol) -> [String] {
        var found: [String] = []
        let bytes = Array(text.utf8)[...]
        var offset = 0
        while let next = nextStart(in: bytes, from: offset) {
            if let range = token(in: bytes, at: next) {
                found.append(String(decoding: bytes[range], as: UTF8.self))
                offset = range.upperBound - bytes.startIndex
            } else {
                offset = next + 1
            }
        }
        return found
    }

    /// `text` with every stand-in replaced by ``Redaction/placeholder``: what request matching compares, so that a
    /// redacted value matches a redacted value whichever secret it stood for (as `[REDACTED]` always did).
    public static func blurred(_ text: String) -> String {
        guard mayContain(text) else { return text }
        let bytes = Array(text.utf8)[...]
        var result: [UInt8] = []
        var copied = 0, offset = 0
        while let next = nextStart(in: bytes, from: offset) {
            if let range = token(in: bytes, at: next) {
                result += bytes[copied..<range.lowerBound]
                result += Redaction.placeholder.utf8
                copied = range.upperBound
                offset = range.upperBound
            } else {
                offset = next + 1
            }
        }
        guard copied > 0 else { return text }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether `text` holds the prefix at all (checked without allocating).
    static func mayContain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { mayContain(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `bytes` hold the prefix at all.
    static func mayContain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= prefixBytes.count else { return false }
        return prefixBytes.withUnsafeBufferPointer { Redaction.occurs($0, in: bytes.assumingMemoryBound(to: UInt8.self)) }
    }

    private static func nextStart(in bytes: ArraySlice<UInt8>, from offset: Int) -> Int? {
        let tail = bytes.dropFirst(offset)
        guard let index = tail.firstRange(of: prefixBytes)?.lowerBound else { return nil }
        return index - bytes.startIndex
    }
}

