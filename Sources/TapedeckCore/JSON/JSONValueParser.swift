import Foundation

/// Parses UTF-8 JSON text (RFC 8259) straight into a ``JSONValue``, with no Foundation objects in between: the one
/// ``JSONReader`` in its `JSONSerialization` dialect.
///
/// It accepts what `JSONSerialization` accepts from UTF-8 text (a leading byte-order mark, and a trailing comma in an
/// array or object, included) and refuses what it refuses; a failure is a `CocoaError(.propertyListReadCorrupt)` (3840,
/// as `JSONSerialization` reports) whose debug description says what was wrong and where
/// (`Invalid JSON at line 1, column 12 (byte 11): …`). Nesting deeper than ``maximumDepth`` is refused rather than
/// exhausting the stack.
///
/// ```swift
/// let value = try JSONValueParser.parse(Data(#"{"ok":true,"n":[1,2.5]}"#.utf8))
/// ```
package enum JSONValueParser {
    /// The deepest nesting of arrays and objects accepted (as `JSONSerialization`).
    package static let maximumDepth = JSONDialect.foundation(allowingFragments: false).maximumDepth

    /// Parses `data`; a top-level value that is neither an array nor an object needs `allowingFragments`.
    package static func parse(_ data: Data, allowingFragments: Bool = false) throws -> JSONValue {
        do {
            return try JSONReader<Builder>.read(data, dialect: .foundation(allowingFragments: allowingFragments))
        } catch {
            throw CocoaError(.propertyListReadCorrupt, userInfo: [
                NSDebugDescriptionErrorKey: "Invalid JSON at line \(error.line), column \(error.column) (byte \(error.offset)): \(error.reason).",
            ])
        }
    }

    /// Whether JSON text is UTF-16 or UTF-32 rather than UTF-8 (which ``parse(_:allowingFragments:)`` reads): a
    /// byte-order mark of those, or (RFC 4627's rule) a zero byte among the first four, which UTF-8 JSON text never has.
    package static func isUTF16or32(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            let count = min(bytes.count, 4)
            if count >= 2, (bytes[0], bytes[1]) == (0xFE, 0xFF) || (bytes[0], bytes[1]) == (0xFF, 0xFE) { return true }
            return (0..<count).contains { bytes[$0] == 0 }
        }
    }

    /// How the reader builds a ``JSONValue``: numbers as `Double`, a repeated member name keeping its last value.
    package enum Builder: JSONTreeBuilder {
        package typealias Value = JSONValue
        package typealias Member = (String, JSONValue)

        package static var null: JSONValue { .null }
        package static func bool(_ value: Bool) -> JSONValue { .bool(value) }
        package static func string(_ value: String) -> JSONValue { .string(value) }
        package static func member(_ name: String, _ value: JSONValue) -> (String, JSONValue) { (name, value) }
        package static func array(_ elements: [JSONValue]) -> JSONValue { .array(elements) }

        package static func object(_ members: [(String, JSONValue)]) -> JSONValue {
            var object = [String: JSONValue](minimumCapacity: members.count)
            for (name, value) in members { object[name] = value }
            return .object(object)
        }

        package static func number(_ number: JSONNumberText) -> JSONValue {
            if let exact = number.exactValue { return .number(exact) }
            var spelled = Array(number.spelling)
            spelled.append(0)
            return .number(spelled.withUnsafeBufferPointer {
                strtod(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nil)
            })
        }
    }
}
