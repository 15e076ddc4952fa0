import Foundation
import TapedeckCore

/// Where and why a JSON document could not be read.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column (in characters) of the offending byte.
    public var column: Int
    /// Byte offset of the offending byte.
    public var offset: Int
    /// What was wrong, e.g. `expected ',' or '}' after an object member`.
    public var reason: String

    /// How messages and reports print it.
    public var description: String { "line \(line), column \(column): \(reason)" }
}

extension CassetteJSON {
    /// Parses a complete JSON document (RFC 8259), keeping key order and number spelling.
    ///
    /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> CassetteJSON {
        try parse(data, maximumDepth: JSONByteParser.maximumDepth)
    }

    private static func parse(_ data: Data, maximumDepth: Int) throws(JSONSyntaxError) -> CassetteJSON {
        let result: Result<CassetteJSON, JSONSyntaxError> = data.withUnsafeBytes { raw in
            var parser = JSONByteParser(bytes: raw, maximumDepth: maximumDepth)
            do throws(JSONSyntaxError) {
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                if parser.position < raw.count { throw parser.error("unexpected text after the JSON value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// A body as JSON when it starts (after whitespace) with `{` or `[` and parses; `nil` for any other body.
    /// A body nested deeper than ``maximumBodyDepth`` is not taken as JSON: stored inside a cassette, a few levels
    /// down, it would make the cassette deeper than the parser reads.
    ///
    /// ```swift
    /// CassetteJSON.parseBody(Data(#"{"ok":true}"#.utf8))   // .object([...])
    /// CassetteJSON.parseBody(Data("plain text".utf8))      // nil
    /// ```
    public static func parseBody(_ data: Data) -> CassetteJSON? {
        // Only JSON's own whitespace may come first: a binary body (often starting with zero bytes) is turned away
        // at its first byte instead of being scanned to its end.
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        let first = data.withUnsafeBytes { raw in raw.first(where: { !isWhitespace($0) }) }
        guard let first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        return try? parse(data, maximumDepth: maximumBodyDepth)
    }

    /// The deepest nesting of a body taken as JSON (see ``parseBody(_:)``).
    public static let maximumBodyDepth = 256

    /// Parses a JSON document given as text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> CassetteJSON {
        try parse(Data(text.utf8))
    }
}

/// A recursive-descent JSON parser over raw bytes.
struct JSONByteParser {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    /// The deepest nesting a document may have.
    static let maximumDepth = 512
    let maximumDepth: Int

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int = JSONByteParser.maximumDepth) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<offset]), as: UTF8.self).count + 1
        return JSONSyntaxError(line: line, column: column, offset: offset, reason: reason)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> CassetteJSON {
        guard depth < maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        guard position < bytes.count else { throw error("unexpected end of the document: a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[position])): a value was expected")
        }
    }

    func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : String(format: "0x%02X", byte)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of the document in '\(literal)'") }
        let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
        for index in 0..<count where bytes[position + index] != expected[index] {
            throw error("invalid literal: expected '\(literal)'", at: position)
        }
        position += count
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> CassetteJSON {
        position += 1
        var members: [CassetteJSON.Member] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a string key in an object")
            }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after the object key \(Shown.quoted(key))")
            }
            position += 1
            skipWhitespace()
            members.append(CassetteJSON.Member(key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of the document inside an object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}' after an object member")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> CassetteJSON {
        position += 1
        var elements: [CassetteJSON] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of the document inside an array") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']' after an array element")
            }
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        func digits(_ parser: inout JSONByteParser) -> Int {
            let begin = parser.position
            while parser.position < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.position]) { parser.position += 1 }
            return parser.position - begin
        }
        let integerStart = position
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("a number needs digits") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error("a number may not have leading zeros", at: integerStart) }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = position
        position += 1
        let start = position
        // Fast path: no escapes; ASCII needs no UTF-8 validation.
        var ascii = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return ascii ? String(decoding: slice, as: UTF8.self) : try validated(slice, start: start)
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character must be escaped inside a string") }
            position += 1
        }
        var buffer = [UInt8]()
        buffer.reserveCapacity(2 * (position - start) + 64)
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { break }
                do {
                    try JSONStringEscape.decode(bytes, at: &position, into: &buffer)
                } catch {
                    throw self.error(error.reason, at: error.offset)
                }
            default:
                if byte < 0x20 { throw error("a control character must be escaped inside a string") }
                // The run up to the next quote, escape or control character, copied at once (a GraphQL query in a
                // JSON body is long text with an escape every line).
                let run = position
                position += 1
                while position < bytes.count, bytes[position] >= 0x20, bytes[position] != UInt8(ascii: "\\"),
                      bytes[position] != UInt8(ascii: "\"") {
                    position += 1
                }
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<position]))
            }
        }
        throw error("unterminated string", at: open)
    }

    func validated(_ slice: UnsafeRawBufferPointer, start: Int) throws(JSONSyntaxError) -> String {
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw error("a string is not valid UTF-8", at: start)
        }
        return string
    }
}
