import Foundation

/// Checks UTF-8 a piece at a time (Unicode's table of well-formed byte sequences, D92): a text message's fragments
/// are checked as they arrive, so a message is refused at its first bad byte rather than when it is complete, and a
/// character may be split across fragments.
///
/// ```swift
/// var validator = IncrementalUTF8Validator()
/// validator.consume([0xE2, 0x82])   // nil: fine so far, one byte of "€" still to come
/// validator.consume([0xAC])         // nil
/// validator.isAtCharacterBoundary   // true: the text may end here
/// ```
public struct IncrementalUTF8Validator: Sendable, Hashable {
    /// Continuation bytes the current character still needs.
    private var pending: UInt8 = 0
    /// The range the next continuation byte must fall in (narrower than 80–BF right after E0, ED, F0 and F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// Bytes consumed so far.
    public private(set) var byteCount = 0

    /// A validator at the start of a text.
    public init() {}

    /// Whether the bytes so far end between characters (a text that ends here is valid).
    public var isAtCharacterBoundary: Bool { pending == 0 }

    /// Checks `bytes`, which follow the bytes consumed before; returns the offset (from the start of the whole text)
    /// of the first byte that cannot be UTF-8, or nil when all are fine so far. After a failure the validator's
    /// state is meaningless.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            if pending == 0 {
                // ASCII runs, eight bytes at a time.
                while index + 8 <= count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < count else { break }
                let byte = bytes[index]
                switch byte {
                case 0x00...0x7F: break
                case 0xC2...0xDF: begin(1, 0x80, 0xBF)
                case 0xE0: begin(2, 0xA0, 0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: begin(2, 0x80, 0xBF)
                case 0xED: begin(2, 0x80, 0x9F)
                case 0xF0: begin(3, 0x90, 0xBF)
                case 0xF1...0xF3: begin(3, 0x80, 0xBF)
                case 0xF4: begin(3, 0x80, 0x8F)
                default: return byteCount + index
                }
            } else {
                let byte = bytes[index]
                guard byte >= lower, byte <= upper else { return byteCount + index }
                pending -= 1
                lower = 0x80
                upper = 0xBF
            }
            index += 1
        }
        byteCount += count
        return nil
    }

    /// ``consume(_:)`` over an array or other contiguous bytes.
    public mutating func consume<Bytes: ContiguousBytes>(_ bytes: Bytes) -> Int? {
        bytes.withUnsafeBytes { consume($0) }
    }

    /// Whether `bytes` are UTF-8 from start to end.
    public static func isValid<Bytes: ContiguousBytes>(_ bytes: Bytes) -> Bool {
        var validator = IncrementalUTF8Validator()
        return validator.consume(bytes) == nil && validator.isAtCharacterBoundary
    }

    private mutating func begin(_ continuationBytes: UInt8, _ lower: UInt8, _ upper: UInt8) {
        pending = continuationBytes
        self.lower = lower
        self.upper = upper
    }
}
