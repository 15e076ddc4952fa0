/// The escapes of a JSON string (RFC 8259 §7), decoded to UTF-8 bytes: used by ``JSONReader`` and by the cassette's
/// compact scanner, which must read strings as the reader does.
@usableFromInline
package enum JSONStringEscape {
    /// What was wrong with an escape, and the byte offset it concerns.
    @usableFromInline
    package struct Failure: Error, Sendable {
        @usableFromInline package let reason: String
        @usableFromInline package let offset: Int
    }

    /// Decodes the escape whose letter (the byte after the backslash) is at `position` in `bytes`, appends its UTF-8
    /// bytes to `decoded`, and moves `position` past it (past both halves of a `\u` surrogate pair).
    @usableFromInline
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, at position: inout Int, into decoded: inout [UInt8]
    ) throws(Failure) {
        let letter = bytes[position]
        position += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad(bytes, at: &position)
            if (0xD800..<0xDC00).contains(scalar) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw Failure(reason: "a high surrogate escape is not followed by a low one", offset: position)
                }
                position += 2
                let low = try hexQuad(bytes, at: &position)
                guard (0xDC00..<0xE000).contains(low) else {
                    throw Failure(reason: "a high surrogate escape is not followed by a low one", offset: position)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw Failure(reason: "a low surrogate escape without a high one", offset: position)
            }
            // Surrogates excluded above, every scalar left is valid.
            decoded.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw Failure(reason: "an invalid escape '\\\(Character(Unicode.Scalar(letter)))'", offset: position - 1)
        }
    }

    private static func hexQuad(_ bytes: UnsafeRawBufferPointer, at position: inout Int) throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else {
            throw Failure(reason: "a \\u escape needs four hexadecimal digits", offset: position)
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure(reason: "a \\u escape needs four hexadecimal digits", offset: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
