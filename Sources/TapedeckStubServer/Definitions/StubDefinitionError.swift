import Foundation
import TapedeckCore

/// Why a stub definition (the JSON form of a ``Stub``, see the StubDefinitions article) was refused: where in the
/// JSON, and what is wrong there.
///
/// ```swift
/// do { _ = try Stub.decodeList(data) } catch { print(error) }
/// // invalid stub definition at [1].request.query.q: give one of equalTo, contains, matches, doesNotContain, doesNotMatch, present: true, absent: true (or a plain string)
/// ```
public struct StubDefinitionError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Where, e.g. `stubs[2].request.query.page` (`$` for the whole document).
    public var location: String
    /// What is wrong.
    public var reason: String

    /// Creates an error; a `location` longer than 320 characters (a key from a damaged file) is cut short.
    public init(location: String, reason: String) {
        self.location = Shown.truncated(location, limit: 4 * Shown.limit)
        self.reason = reason
    }

    /// `invalid stub definition at LOCATION: REASON`.
    public var description: String { "invalid stub definition at \(location): \(reason)" }

    /// Decodes a `Value` from JSON, describing any failure by its place in the document.
    static func decoding<Value: Decodable>(_ type: Value.Type, from data: Data,
                                           filesDirectory: URL? = nil) throws(StubDefinitionError) -> Value {
        // JSONDecoder says only "The given data was not valid JSON"; Tapedeck's parser says where and what.
        do { _ = try JSONValueParser.parse(data) } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw StubDefinitionError(location: "$", reason: "not JSON: \(detail)")
        }
        do {
            let decoder = JSONDecoder()
            if let filesDirectory { decoder.userInfo[.stubFilesDirectory] = filesDirectory }
            return try decoder.decode(Value.self, from: data)
        } catch let error as DecodingError {
            throw StubDefinitionError(error)
        } catch {
            throw StubDefinitionError(location: "$", reason: "\(error)")
        }
    }

    /// The place and reason of a decoding failure: a wrong type or a missing field, or what a definition type's
    /// decoder refused (thrown as `dataCorrupted` with the offending field's coding path).
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(location: Self.location(context.codingPath + [key]), reason: "required field \"\(key.stringValue)\" is missing")
        case .typeMismatch(let type, let context):
            self.init(location: Self.location(context.codingPath), reason: "expected \(Self.typeName(type))")
        case .valueNotFound(let type, let context):
            self.init(location: Self.location(context.codingPath), reason: "expected \(Self.typeName(type)), found null")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
            self.init(location: Self.location(context.codingPath), reason: underlying ?? context.debugDescription)
        @unknown default:
            self.init(location: "$", reason: "\(error)")
        }
    }

    /// `stubs[2].request.query.page` for a coding path, `$` for the root; a key that is not a plain name is quoted
    /// (and cut short), as in `request.headers["X Trace"]`.
    private static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "$" }
        var location = ""
        for key in path {
            if let index = key.intValue {
                location += "[\(index)]"
            } else if isPlainName(key.stringValue) {
                location += (location.isEmpty ? "" : ".") + key.stringValue
            } else {
                location += "[\(Shown.quoted(key.stringValue))]"
            }
        }
        return location
    }

    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        // Letters (any non-ASCII character counts as one, as in JSONPath's shorthand), digits, `_` and `-`.
        return key.utf8.allSatisfy { byte in
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is UInt64.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            if String(describing: type).hasPrefix("Dictionary") { return "an object" }
            return type is any Collection.Type ? "an array" : "an object"
        }
    }
}

/// A field name in a coding path, for definition errors about a field nested below the container that found them.
struct DefinitionKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
}

extension DecodingError {
    /// A stub definition refused at `codingPath` followed by `fields`: ``StubDefinitionError`` reports it as
    /// `LOCATION: reason`.
    static func definition(_ reason: String, at codingPath: [any CodingKey], _ fields: String...) -> DecodingError {
        definition(reason, at: codingPath, fields)
    }

    /// A stub definition refused at `codingPath` followed by `fields`.
    static func definition(_ reason: String, at codingPath: [any CodingKey], _ fields: [String]) -> DecodingError {
        .dataCorrupted(Context(codingPath: codingPath + fields.map(DefinitionKey.init), debugDescription: reason))
    }
}
