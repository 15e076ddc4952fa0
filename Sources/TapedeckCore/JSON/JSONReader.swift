import Foundation

/// What a ``JSONReader`` builds its values with: each JSON tree (``JSONValue``, the cassette's order- and
/// spelling-keeping tree) is one builder, and the bytes are read by the one reader.
///
/// Public (and the reader inlinable) so that a builder in another module gets a reader specialised for it.
public protocol JSONTreeBuilder {
    /// A value of the tree.
    associatedtype Value
    /// One name and value of an object, as the tree stores it.
    associatedtype Member

    /// `null`.
    static var null: Value { get }
    /// `true` or `false`.
    static func bool(_ value: Bool) -> Value
    /// A string, escapes decoded.
    static func string(_ value: String) -> Value
    /// A number, as spelled (and its value when that is exact without further work).
    static func number(_ number: JSONNumberText) -> Value
    /// One member of an object.
    static func member(_ name: String, _ value: Value) -> Member
    /// An array of the elements read, in order.
    static func array(_ elements: [Value]) -> Value
    /// An object of the members read, in order (a repeated name included).
    static func object(_ members: [Member]) -> Value
}

/// A number as the reader found it: its spelling (valid in JSON's grammar), and its value when it is exact in a
/// `Double` without further work (an integer of at most 15 digits).
public struct JSONNumberText {
    /// The bytes of the number; valid only during the call that receives it.
    public let spelling: UnsafeRawBufferPointer
    /// The value, when the number is an integer of at most 15 digits.
    public let exactValue: Double?

    @inlinable
    init(spelling: UnsafeRawBufferPointer, exactValue: Double?) {
        self.spelling = spelling
        self.exactValue = exactValue
    }
}

/// What a ``JSONReader`` accepts beyond RFC 8259, and how deep it lets values nest.
public struct JSONDialect: Sendable {
    /// A leading UTF-8 byte-order mark is read past.
    public var allowsByteOrderMark: Bool
    /// A comma may follow the last element of an array or member of an object.
    public var allowsTrailingCommas: Bool
    /// The top-level value may be a string, number, `true`, `false` or `null`.
    public var allowsFragments: Bool
    /// How deep arrays and objects nest (the top-level container is at depth 1).
    public var maximumDepth: Int
    /// Whether a string, number or literal counts as a level too, so that no value at all sits deeper than
    /// ``maximumDepth`` (the cassette rule) rather than no container (`JSONSerialization`'s).
    public var depthCountsScalars: Bool

    /// RFC 8259 as it is, any top-level value, no value nested deeper than `maximumDepth`: cassettes and their bodies.
    public static func strict(maximumDepth: Int = 512) -> JSONDialect {
        JSONDialect(allowsByteOrderMark: false, allowsTrailingCommas: false, allowsFragments: true,
                    maximumDepth: maximumDepth, depthCountsScalars: true)
    }

    /// What `JSONSerialization` reads from UTF-8 text: a byte-order mark, trailing commas, containers 512 deep, and a
    /// top-level scalar only when `allowingFragments`.
    public static func foundation(allowingFragments: Bool) -> JSONDialect {
        JSONDialect(allowsByteOrderMark: true, allowsTrailingCommas: true, allowsFragments: allowingFragments,
                    maximumDepth: 512, depthCountsScalars: false)
    }
}

/// The one byte-level JSON reader: recursive descent over UTF-8 text, building whatever tree `Builder` makes, in the
/// rules of a ``JSONDialect``, failing with a ``JSONSyntaxError`` that says what was wrong and at which line,
/// column and byte.
///
/// ```swift
/// let value = try JSONReader<JSONValueParser.Builder>.read(Data(#"{"ok":true}"#.utf8), dialect: .strict())
/// ```
///
/// It is inlinable so that each module's builder gets a specialised reader (a generic call per value would cost
/// more than the reading).
public struct JSONReader<Builder: JSONTreeBuilder> {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline let dialect: JSONDialect
    @usableFromInline var position = 0

    @inlinable
    init(bytes: UnsafeRawBufferPointer, dialect: JSONDialect) {
        self.bytes = bytes
        self.dialect = dialect
    }

    /// Reads `data` as one JSON document in `dialect`.
    @inlinable
    public static func read(_ data: Data, dialect: JSONDialect) throws(JSONSyntaxError) -> Builder.Value {
        let result: Result<Builder.Value, JSONSyntaxError> = data.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw, dialect: dialect)
            do throws(JSONSyntaxError) {
                return .success(try reader.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    @inlinable
    mutating func document() throws(JSONSyntaxError) -> Builder.Value {
        if dialect.allowsByteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        if !dialect.allowsFragments, position < bytes.count, bytes[position] != UInt8(ascii: "{"), bytes[position] != UInt8(ascii: "[") {
            throw error("the top-level value is not an array or object (allow fragments to read it)")
        }
        let value = try value(depth: 0)
        skipWhitespace()
        if position < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    @usableFromInline
    func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(reason, at: offset ?? position, in: bytes)
    }

    @inlinable
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The value at `position`, inside `depth` containers.
    @inlinable
    mutating func value(depth: Int) throws(JSONSyntaxError) -> Builder.Value {
        if depth >= dialect.maximumDepth { try refuseNesting() }
        guard position < bytes.count else { throw error("unexpected end of the document: a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return Builder.string(try string())
        case UInt8(ascii: "t"): try literal("true"); return Builder.bool(true)
        case UInt8(ascii: "f"): try literal("false"); return Builder.bool(false)
        case UInt8(ascii: "n"): try literal("null"); return Builder.null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character \(JSONSyntaxError.describe(bytes[position])): a value was expected")
        }
    }

    /// Refuses the value at `position`, which sits at the maximum depth, if the dialect counts it as a level.
    @usableFromInline
    func refuseNesting() throws(JSONSyntaxError) {
        let opensContainer = position < bytes.count && (bytes[position] == UInt8(ascii: "{") || bytes[position] == UInt8(ascii: "["))
        if dialect.depthCountsScalars || opensContainer { throw error("nesting deeper than \(dialect.maximumDepth) levels") }
    }

    @inlinable
    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of the document in '\(word)'") }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
            throw error("invalid literal: expected '\(word)'")
        }
        position += count
    }

    @inlinable
    mutating func object(depth: Int) throws(JSONSyntaxError) -> Builder.Value {
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return Builder.object([])
        }
        // Gathered here and handed over whole: the tree takes the array as it is, with no copy.
        var members: [Builder.Member] = []
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a string key in an object")
            }
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after the object key \(JSONSyntaxError.quoted(key))")
            }
            position += 1
            skipWhitespace()
            members.append(Builder.member(key, try value(depth: depth + 1)))
            if try closes(UInt8(ascii: "}"), inside: "an object", "expected ',' or '}' after an object member") {
                return Builder.object(members)
            }
        }
    }

    @inlinable
    mutating func array(depth: Int) throws(JSONSyntaxError) -> Builder.Value {
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return Builder.array([])
        }
        var elements: [Builder.Value] = []
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            if try closes(UInt8(ascii: "]"), inside: "an array", "expected ',' or ']' after an array element") {
                return Builder.array(elements)
            }
        }
    }

    /// After a member or element: reads past a `,` (`false`: another one follows) or the `closing` byte (`true`); in a
    /// dialect that allows it, a comma followed by the closing byte closes too.
    @inlinable
    mutating func closes(_ closing: UInt8, inside container: StaticString, _ expected: StaticString) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of the document inside \(container)") }
        if bytes[position] == UInt8(ascii: ",") {
            position += 1
            guard dialect.allowsTrailingCommas else { return false }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == closing else { return false }
        } else if bytes[position] != closing {
            throw error("\(expected)")
        }
        position += 1
        return true
    }

    /// A number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inlinable
    mutating func number() throws(JSONSyntaxError) -> Builder.Value {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let integerStart = position
        var magnitude: UInt64 = 0
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 {
            magnitude = magnitude &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
            position += 1
        }
        let integerDigits = position - integerStart
        guard integerDigits > 0 else { throw error("a number needs digits") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error("a number may not have leading zeros", at: integerStart) }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        // Integers of up to 15 digits are exact in a Double.
        let exact = isInteger && integerDigits <= 15 ? (negative ? -Double(magnitude) : Double(magnitude)) : nil
        return Builder.number(JSONNumberText(spelling: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), exactValue: exact))
    }

    @inlinable
    mutating func digits() -> Int {
        let begin = position
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        return position - begin
    }

    /// A string at the opening quote: the bytes up to the closing quote, with escapes decoded.
    @inlinable
    mutating func string() throws(JSONSyntaxError) -> String {
        let open = position
        position += 1
        let start = position
        // The common string has no escape: its bytes are taken as they are (ASCII needs no UTF-8 validation).
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
                return try validated(buffer, start: start)
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

    @inlinable
    func validated(_ text: some Collection<UInt8>, start: Int) throws(JSONSyntaxError) -> String {
        guard let string = String(validating: text, as: UTF8.self) else {
            throw error("a string is not valid UTF-8", at: start)
        }
        return string
    }
}
