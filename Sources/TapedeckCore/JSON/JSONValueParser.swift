import Foundation

/// Parses UTF-8 JSON text (RFC 8259) straight into a ``JSONValue``, with no Foundation objects in between.
///
/// It accepts what `JSONSerialization` accepts from UTF-8 text (a leading byte-order mark, and a trailing comma in an
/// array or object, included) and refuses what it refuses; a failure is a `CocoaError(.propertyListReadCorrupt)` (3840, as `JSONSerialization` reports) whose
/// debug description says what was wrong and at which byte. Nesting deeper than ``maximumDepth`` is refused rather
/// than exhausting the stack.
///
/// ```swift
/// let value = try JSONValueParser.parse(Data(#"{"ok":true,"n":[1,2.5]}"#.utf8))
/// ```
package enum JSONValueParser {
    /// The deepest nesting of arrays and objects accepted (as `JSONSerialization`).
    package static let maximumDepth = 512

    /// Parses `data`; a top-level value that is neither an array nor an object needs `allowingFragments`.
    package static func parse(_ data: Data, allowingFragments: Bool = false) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw)
            reader.skipByteOrderMark()
            reader.skipWhitespace()
            if !allowingFragments, let first = reader.peek(), first != UInt8(ascii: "{"), first != UInt8(ascii: "[") {
                throw reader.failure("the top-level value is not an array or object (allow fragments to read it)")
            }
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            if reader.position < raw.count { throw reader.failure("unexpected text after the JSON value") }
            return value
        }
    }

    /// Whether JSON text is UTF-16 or UTF-32 rather than UTF-8 (which ``parse(_:allowingFragments:)`` reads): a
    /// byte-order mark of those, or (RFC 4627's rule) a zero byte among the first four, which UTF-8 JSON text never has.
    package static func isUTF16or32(_ data: Data) -> Bool {
        let prefix = data.prefix(4)
        if prefix.starts(with: [0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE]) { return true }
        return prefix.contains(0)
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        /// Members and elements of the containers being read, innermost last: one buffer for the whole document,
        /// so each container is built once at its final size instead of growing.
        var pendingMembers: [(String, JSONValue)] = []
        var pendingElements: [JSONValue] = []

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            pendingMembers.reserveCapacity(16)
            pendingElements.reserveCapacity(16)
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        /// The error at the current position: its line and column (in characters), then the byte offset.
        func failure(_ what: String) -> CocoaError {
            var line = 1
            var lineStart = 0
            let end = min(position, bytes.count)
            for index in 0..<end where bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            let column = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self).count + 1
            return CocoaError(.propertyListReadCorrupt, userInfo: [
                NSDebugDescriptionErrorKey: "Invalid JSON at line \(line), column \(column) (byte \(position)): \(what).",
            ])
        }

        func unexpected(_ expected: String) -> CocoaError {
            guard let byte = peek() else { return failure("the text ends where \(expected) was expected") }
            let shown = (0x20..<0x7f).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            return failure("found \(shown) where \(expected) was expected")
        }

        mutating func skipByteOrderMark() {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard let byte = peek() else { throw unexpected("a value") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw unexpected("a value")
            }
        }

        private mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count,
                  memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0 else { throw unexpected("'\(word)'") }
            position += count
        }

        private mutating func object(depth: Int) throws -> JSONValue {
            guard depth <= JSONValueParser.maximumDepth else { throw failure("nesting deeper than \(JSONValueParser.maximumDepth) levels") }
            position += 1
            let start = pendingMembers.count
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                position += 1
                return .object([:])
            }
            while true {
                skipWhitespace()
                if peek() == UInt8(ascii: "}"), pendingMembers.count > start {  // a trailing comma, as Foundation allows
                    position += 1
                    return .object(takeMembers(from: start))
                }
                guard peek() == UInt8(ascii: "\"") else { throw unexpected("a member name in quotes") }
                let key = try string()
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after a member name") }
                position += 1
                skipWhitespace()
                let member = try value(depth: depth)
                pendingMembers.append((key, member))
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return .object(takeMembers(from: start))
                default: throw unexpected("',' or '}' in an object")
                }
            }
        }

        private mutating func array(depth: Int) throws -> JSONValue {
            guard depth <= JSONValueParser.maximumDepth else { throw failure("nesting deeper than \(JSONValueParser.maximumDepth) levels") }
            position += 1
            let start = pendingElements.count
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            while true {
                skipWhitespace()
                if peek() == UInt8(ascii: "]"), pendingElements.count > start {  // a trailing comma, as Foundation allows
                    position += 1
                    return .array(takeElements(from: start))
                }
                let element = try value(depth: depth)
                pendingElements.append(element)
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"): position += 1; return .array(takeElements(from: start))
                default: throw unexpected("',' or ']' in an array")
                }
            }
        }

        /// The object whose members were pushed from `start` on (a repeated name keeps its last value).
        private mutating func takeMembers(from start: Int) -> [String: JSONValue] {
            var members = [String: JSONValue](minimumCapacity: pendingMembers.count - start)
            for (key, value) in pendingMembers[start...] { members[key] = value }
            pendingMembers.removeSubrange(start...)
            return members
        }

        /// The array whose elements were pushed from `start` on.
        private mutating func takeElements(from start: Int) -> [JSONValue] {
            let elements = Array(pendingElements[start...])
            pendingElements.removeSubrange(start...)
            return elements
        }

        /// A string at the opening quote: the bytes up to the closing quote, with escapes decoded.
        private mutating func string() throws -> String {
            position += 1
            let start = position
            // The common string has no escape: its bytes are taken as they are (validated as UTF-8).
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    defer { position += 1 }
                    return try text(start..<position)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw failure("an unescaped control character in a string") }
                position += 1
            }
            guard position < bytes.count else { throw failure("a string is not terminated") }
            var decoded = Array(bytes[start..<position])
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    guard let result = String(validating: decoded, as: UTF8.self) else {
                        throw failure("a string is not valid UTF-8")
                    }
                    return result
                case UInt8(ascii: "\\"):
                    try escape(into: &decoded)
                case 0..<0x20:
                    throw failure("an unescaped control character in a string")
                default:
                    decoded.append(byte)
                    position += 1
                }
            }
            throw failure("a string is not terminated")
        }

        private func text(_ range: Range<Int>) throws -> String {
            guard let result = String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
                throw failure("a string is not valid UTF-8")
            }
            return result
        }

        /// Decodes the escape at `position` (a backslash) into UTF-8 bytes.
        private mutating func escape(into decoded: inout [UInt8]) throws {
            position += 1
            guard position < bytes.count else { throw failure("a string ends inside an escape") }
            do {
                try JSONStringEscape.decode(bytes, at: &position, into: &decoded)
            } catch {
                position = error.offset
                throw failure(error.reason)
            }
        }

        /// A number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        private mutating func number() throws -> Double {
            let start = position
            var integer: UInt64 = 0
            var digits = 0
            var isPlainInteger = true
            if peek() == UInt8(ascii: "-") { position += 1 }
            guard let first = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                throw unexpected("a digit")
            }
            if first == UInt8(ascii: "0") {
                position += 1
                if let next = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                    throw failure("a number has a leading zero")
                }
            } else {
                while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    integer = integer &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                    digits += 1
                    position += 1
                }
            }
            if peek() == UInt8(ascii: ".") {
                isPlainInteger = false
                position += 1
                try requireDigits("a digit after the decimal point")
            }
            if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isPlainInteger = false
                position += 1
                if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
                try requireDigits("a digit in the exponent")
            }
            // Integers of up to 15 digits are exact in a Double; anything else goes through strtod.
            if isPlainInteger, digits <= 15 {
                return bytes[start] == UInt8(ascii: "-") ? -Double(integer) : Double(integer)
            }
            var spelled = Array(bytes[start..<position])
            spelled.append(0)
            return spelled.withUnsafeBufferPointer { strtod(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil) }
        }

        private mutating func requireDigits(_ expected: String) throws {
            guard let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw unexpected(expected) }
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        }
    }
}
