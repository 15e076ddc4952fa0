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
        self.init(location: error.place.isEmpty ? "$" : error.place, reason: error.reason)
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
