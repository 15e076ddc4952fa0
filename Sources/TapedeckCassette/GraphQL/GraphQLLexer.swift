import TapedeckCore

/// A GraphQL document read into tokens by the lexical grammar of the GraphQL specification (October 2021, §2.1):
/// punctuators, names, int and float values, strings and block strings. What the grammar ignores (the byte order
/// mark, white space, line terminators, commas and comments) is dropped.
struct GraphQLLexer {
    enum Kind: Equatable {
        case punctuator, spread, name, int, float, string, blockString
    }

    struct Token {
        var kind: Kind
        /// Byte offsets of the token in the source.
        var range: Range<Int>
        /// A block string's value (``GraphQLBlockString/value(raw:)``), which is how it is compared, not its spelling.
        var blockValue: String?
    }

    let bytes: [UInt8]
    private(set) var tokens: [Token] = []

    /// Reads `source` whole, or throws at its first lexical error.
    init(_ source: String) throws(GraphQLSyntaxError) {
        bytes = Array(source.utf8)
        var position = 0
        while position < bytes.count {
            position = try readToken(at: position)
        }
    }

    /// The text of a token as written.
    func text(of token: Token) -> Substring {
        Substring(decoding: bytes[token.range], as: UTF8.self)
    }

    /// Reads what starts at `start` (a token or something ignored) and returns where the next thing starts.
    private mutating func readToken(at start: Int) throws(GraphQLSyntaxError) -> Int {
        let byte = bytes[start]
        switch byte {
        case 0x09, 0x20, 0x2C, 0x0A, 0x0D:  // tab, space, comma, line feed, carriage return
            return start + 1
        case 0xEF where start + 2 < bytes.count && bytes[start + 1] == 0xBB && bytes[start + 2] == 0xBF:  // U+FEFF
            return start + 3
        case UInt8(ascii: "#"):
            var end = start + 1
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            return end
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            tokens.append(Token(kind: .punctuator, range: start..<start + 1))
            return start + 1
        case UInt8(ascii: "."):
            guard start + 2 < bytes.count, bytes[start + 1] == byte, bytes[start + 2] == byte else {
                throw error(at: start, "unexpected \".\" (a spread is \"...\")")
            }
            tokens.append(Token(kind: .spread, range: start..<start + 3))
            return start + 3
        case UInt8(ascii: "\""):
            if start + 2 < bytes.count, bytes[start + 1] == byte, bytes[start + 2] == byte {
                return try readBlockString(at: start)
            }
            return try readString(at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber(at: start)
        default:
            guard Self.isNameStart(byte) else {
                throw error(at: start, "unexpected character \(Self.describe(byteAt: start, in: bytes))")
            }
            var end = start + 1
            while end < bytes.count, Self.isNameStart(bytes[end]) || bytes[end].isASCIIDigit { end += 1 }
            tokens.append(Token(kind: .name, range: start..<end))
            return end
        }
    }

    /// IntValue or FloatValue: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, followed by neither a digit,
    /// a `.` nor a name.
    private mutating func readNumber(at start: Int) throws(GraphQLSyntaxError) -> Int {
        var end = start
        if bytes[end] == UInt8(ascii: "-") { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "0") {
            end += 1
            if end < bytes.count, bytes[end].isASCIIDigit { throw error(at: end, "a number may not have a leading zero") }
        } else {
            end = try digits(from: end)
        }
        var isFloat = false
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            isFloat = true
            end = try digits(from: end + 1)
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
            isFloat = true
            end += 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            end = try digits(from: end)
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") || Self.isNameStart(bytes[end]) {
            throw error(at: end, "unexpected \(Self.describe(byteAt: end, in: bytes)) right after a number")
        }
        tokens.append(Token(kind: isFloat ? .float : .int, range: start..<end))
        return end
    }

    /// The end of one or more digits starting at `start`.
    private func digits(from start: Int) throws(GraphQLSyntaxError) -> Int {
        var end = start
        while end < bytes.count, bytes[end].isASCIIDigit { end += 1 }
        if end == start { throw error(at: start, "expected a digit, found \(Self.describe(byteAt: start, in: bytes))") }
        return end
    }

    /// A `"…"` string: no line terminator inside, escapes `\" \\ \/ \b \f \n \r \t \uXXXX \u{X…}`.
    private mutating func readString(at start: Int) throws(GraphQLSyntaxError) -> Int {
        var end = start + 1
        while end < bytes.count {
            let byte = bytes[end]
            switch byte {
            case UInt8(ascii: "\""):
                tokens.append(Token(kind: .string, range: start..<end + 1))
                return end + 1
            case 0x0A, 0x0D:
                throw error(at: end, "unterminated string")
            case UInt8(ascii: "\\"):
                end = try escape(at: end)
            case 0x00..<0x20 where byte != 0x09:
                throw error(at: end, "invalid character \(Self.describe(byteAt: end, in: bytes)) in a string")
            default:
                end += 1
            }
        }
        throw error(at: end, "unterminated string")
    }

    /// The end of the escape sequence starting at the backslash at `start`.
    private func escape(at start: Int) throws(GraphQLSyntaxError) -> Int {
        guard start + 1 < bytes.count else { throw error(at: start, "unterminated string") }
        switch bytes[start + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return start + 2
        case UInt8(ascii: "u"):
            var end = start + 2
            if end < bytes.count, bytes[end] == UInt8(ascii: "{") {
                end += 1
                let first = end
                while end < bytes.count, Self.isHexDigit(bytes[end]) { end += 1 }
                guard end > first, end < bytes.count, bytes[end] == UInt8(ascii: "}") else {
                    throw error(at: start, "invalid Unicode escape sequence")
                }
                return end + 1
            }
            guard end + 4 <= bytes.count, bytes[end..<end + 4].allSatisfy(Self.isHexDigit) else {
                throw error(at: start, "invalid Unicode escape sequence")
            }
            end += 4
            return end
        default:
            throw error(at: start, "invalid escape sequence \\\(Self.describe(byteAt: start + 1, in: bytes))")
        }
    }

    /// A `"""…"""` block string: anything but `"""`, which is written `\"""` inside.
    private mutating func readBlockString(at start: Int) throws(GraphQLSyntaxError) -> Int {
        var end = start + 3
        var raw: [UInt8] = []
        let quote = UInt8(ascii: "\"")
        while end < bytes.count {
            let byte = bytes[end]
            if byte == quote, end + 2 < bytes.count, bytes[end + 1] == quote, bytes[end + 2] == quote {
                let value = GraphQLBlockString.value(raw: String(decoding: raw, as: UTF8.self))
                tokens.append(Token(kind: .blockString, range: start..<end + 3, blockValue: value))
                return end + 3
            }
            if byte == UInt8(ascii: "\\"), end + 3 < bytes.count, bytes[end + 1] == quote, bytes[end + 2] == quote,
               bytes[end + 3] == quote {
                raw += [quote, quote, quote]
                end += 4
                continue
            }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                throw error(at: end, "invalid character \(Self.describe(byteAt: end, in: bytes)) in a block string")
            }
            raw.append(byte)
            end += 1
        }
        throw error(at: end, "unterminated block string")
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        byte.isASCIIDigit || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }

    /// `"x"`, `U+000B` or `the end of the document`, for messages.
    static func describe(byteAt offset: Int, in bytes: [UInt8]) -> String {
        guard offset < bytes.count else { return "the end of the document" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        if byte < 0x80 { return "U+" + String(byte, radix: 16, uppercase: true).leftPadded(to: 4) }
        let scalar = String(decoding: bytes[offset...].prefix(4), as: UTF8.self).unicodeScalars.first
        return scalar.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) } ?? "a non-ASCII byte"
    }

    private func error(at offset: Int, _ reason: String) -> GraphQLSyntaxError {
        var line = 1, lineStart = 0, index = 0
        while index < min(offset, bytes.count) {
            if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return GraphQLSyntaxError(line: line, column: column, reason: reason)
    }
}

/// Why a GraphQL document could not be read, and where.
public struct GraphQLSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// What was wrong, e.g. `unterminated string`.
    public var reason: String

    /// `GraphQL syntax error at line 2, column 8: unterminated string`.
    public var description: String { "GraphQL syntax error at line \(line), column \(column): \(reason)" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
