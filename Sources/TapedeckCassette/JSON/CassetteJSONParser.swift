import Foundation
import TapedeckCore

extension CassetteJSON {
    /// Parses a complete JSON document (RFC 8259), keeping key order and number spelling.
    ///
    /// - Throws: `JSONSyntaxError` with the line and column of the first problem.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> CassetteJSON {
        try JSONReader<Builder>.read(data, dialect: .strict())
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
        return try? JSONReader<Builder>.read(data, dialect: .strict(maximumDepth: maximumBodyDepth))
    }

    /// The deepest nesting of a body taken as JSON (see ``parseBody(_:)``).
    public static let maximumBodyDepth = 256

    /// Parses a JSON document given as text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> CassetteJSON {
        try parse(Data(text.utf8))
    }

    /// How the reader builds this tree: members in order, numbers as spelled.
    enum Builder: JSONTreeBuilder {
        typealias Value = CassetteJSON
        typealias Member = CassetteJSON.Member

        static var null: CassetteJSON { .null }
        static func bool(_ value: Bool) -> CassetteJSON { .bool(value) }
        static func string(_ value: String) -> CassetteJSON { .string(value) }
        static func number(_ number: JSONNumberText) -> CassetteJSON { .number(String(decoding: number.spelling, as: UTF8.self)) }
        static func member(_ name: String, _ value: CassetteJSON) -> Member { CassetteJSON.Member(name, value) }
        static func array(_ elements: [CassetteJSON]) -> CassetteJSON { .array(elements) }
        static func object(_ members: [Member]) -> CassetteJSON { .object(members) }
    }
}
