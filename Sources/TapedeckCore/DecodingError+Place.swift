import Foundation

extension DecodingError {
    /// Where in the document decoding failed, as messages name places: `stubs[2].request.query.page`, empty for the
    /// document itself. A name that is not plain is quoted (and cut short), as in `headers["X Trace"]`.
    ///
    /// ```swift
    /// do { _ = try JSONDecoder().decode(Settings.self, from: data) } catch let error as DecodingError {
    ///     print("\(error.place): \(error.reason)")   // "retries[1]: expected an integer"
    /// }
    /// ```
    package var place: String {
        var place = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                place += "[\(index)]"
            } else if Self.isPlainName(key.stringValue) {
                place += (place.isEmpty ? "" : ".") + key.stringValue
            } else {
                place += "[\(Shown.quoted(key.stringValue))]"
            }
        }
        return place
    }

    /// What was wrong at ``place``, in words: `required field "name" is missing`, `expected a string, found null`,
    /// or what a type's decoder said when it refused a value.
    package var reason: String {
        switch self {
        case .keyNotFound(let key, _): return "required field \(Shown.quoted(key.stringValue)) is missing"
        case .typeMismatch(let type, _): return "expected \(Self.kind(type))"
        case .valueNotFound(let type, _): return "expected \(Self.kind(type)), found null"
        case .dataCorrupted(let context):
            guard let underlying = context.underlyingError else { return context.debugDescription }
            let detail = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(underlying)"
            return context.codingPath.isEmpty ? "not valid JSON: \(detail)" : detail
        @unknown default: return "\(self)"
        }
    }

    /// The coding path, with the missing key at its end for `keyNotFound`.
    private var codingPath: [any CodingKey] {
        switch self {
        case .keyNotFound(let key, let context): context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context.codingPath
        @unknown default: []
        }
    }

    /// Letters (any non-ASCII character counts as one, as in JSONPath's shorthand), digits, `_` and `-`, not starting
    /// with a digit.
    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type, is UInt16.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is Date.Type: return "a date"
        default:
            if String(describing: type).hasPrefix("Dictionary") { return "an object" }
            return type is any Collection.Type ? "an array" : "an object"
        }
    }
}
