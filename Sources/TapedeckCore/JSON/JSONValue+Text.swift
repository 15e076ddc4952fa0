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

    /// Compact JSON text with sorted keys and unescaped slashes, so equal values encode to equal bytes.
    public var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }
}
