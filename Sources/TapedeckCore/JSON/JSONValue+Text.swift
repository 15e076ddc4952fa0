import Foundation

extension JSONValue {
    /// Parses JSON text (any top-level value); `nil` when `data` is not JSON.
    ///
    /// ```swift
    /// JSONValue(parsing: Data(#"{"a": [1, true]}"#.utf8))  // ["a": [1, true]]
    /// ```
    public init?(parsing data: Data) {
        if JSONValueParser.isUTF16or32(data) {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
            self = value
        } else {
            guard let value = try? JSONValueParser.parse(data, allowingFragments: true) else { return nil }
            self = value
        }
    }

    /// Compact JSON text with sorted keys and unescaped slashes, so equal values encode to equal bytes: the bytes
    /// `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, and like it `null` for a value holding a
    /// number that is not finite.
    public var encoded: Data {
        hasNonFiniteNumber ? Data("null".utf8) : JSONWriter.serialize(self)
    }

    private var hasNonFiniteNumber: Bool {
        switch self {
        case .number(let number): !number.isFinite
        case .array(let elements): elements.contains { $0.hasNonFiniteNumber }
        case .object(let members): members.values.contains { $0.hasNonFiniteNumber }
        case .null, .bool, .string: false
        }
    }
}

extension JSONValue: JSONWritable {
    /// Writes the value as `JSONEncoder` does with `.sortedKeys`: object keys in the order of their UTF-8 bytes,
    /// integral numbers below 9 × 10^15 as integers, others in Swift's shortest spelling without a trailing `.0`
    /// (a number that is not finite, which JSON cannot spell, as `null`).
    public func write(to writer: inout JSONWriter, level: Int) {
        switch self {
        case .null: writer.output.append("null")
        case .bool(let flag): writer.output.append(flag ? "true" : "false")
        case .number(let number):
            if let integer = intValue {
                writer.writeInteger(Int64(integer))
            } else if number.isFinite {
                let text = number.description
                writer.output.append(utf8: text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
            } else {
                writer.output.append("null")
            }
        case .string(let string): writer.writeString(string)
        case .array(let elements): writer.writeArray(elements, level: level)
        case .object(let members):
            writer.writeObject(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }, level: level)
        }
    }
}
