import Foundation

/// A request serializer that sends parameters as a property-list body (AFNetworking's
/// `AFPropertyListRequestSerializer`).
///
/// Methods in ``HTTPRequestSerializer/methodsEncodingParametersInURI`` still put the parameters in the query
/// string. Otherwise, when there are parameters, the body is `PropertyListSerialization` output of
/// `parameters.foundationObject` in ``format`` and `Content-Type` is `application/x-plist` unless the request
/// already has one. Property lists have no `null`, so parameters containing one are refused.
///
/// Dictionary keys are written sorted in both formats, so the same parameters give the same bytes in every process
/// (Swift seeds its hashing per process, and Foundation's binary writer keeps a dictionary's own order): recordings
/// do not churn and exact body matching holds.
///
/// ```swift
/// let serializer = PropertyListRequestSerializer(format: .binary)
/// let request = try serializer.request(method: .put, url: URL(string: "http://127.0.0.1:8080/put")!,
///                                      parameters: ["key": "value"])
/// ```
public struct PropertyListRequestSerializer: BodyParameterEncoding {
    /// A property-list format that can be written.
    public enum Format: Hashable, Sendable {
        /// XML (`<?xml … <plist version="1.0">`), the default as in AFNetworking.
        case xml
        /// Binary (`bplist00`).
        case binary

        var foundationFormat: PropertyListSerialization.PropertyListFormat {
            switch self {
            case .xml: return .xml
            case .binary: return .binary
            }
        }
    }

    /// The default headers, timeout, URI methods and query encoding this serializer shares with
    /// ``HTTPRequestSerializer``.
    public var base: HTTPRequestSerializer
    /// The format of the body. Default ``Format/xml``.
    public var format: Format

    /// Creates a serializer.
    public init(base: HTTPRequestSerializer = HTTPRequestSerializer(), format: Format = .xml) {
        self.base = base
        self.format = format
    }
}

extension PropertyListRequestSerializer {
    /// The `Content-Type` of the body: `application/x-plist`.
    public var bodyContentType: String { "application/x-plist" }

    /// `parameters` as a property list in ``format``.
    ///
    /// - Throws: ``RequestSerializationError/invalidPropertyListParameters(url:underlying:)`` (code 3851) when
    ///   the parameters cannot be written as a property list (for example, they contain `null`).
    public func encodeBody(_ parameters: JSONValue, url: URL) throws -> Data {
        let object = parameters.foundationObject
        guard PropertyListSerialization.propertyList(object, isValidFor: format.foundationFormat) else {
            throw RequestSerializationError.invalidPropertyListParameters(url: url, underlying: nil)
        }
        do {
            switch format {
            case .xml:
                // Foundation's XML writer sorts dictionary keys itself.
                return try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
            case .binary:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return try encoder.encode(SortedPropertyList(parameters))
            }
        } catch {
            throw RequestSerializationError.invalidPropertyListParameters(url: url, underlying: error)
        }
    }
}

/// A parameter value encoded as a property list with every dictionary's keys in sorted order (a keyed container
/// keeps the order members are encoded in), and numbers as `foundationObject` writes them: whole numbers as
/// integers, others as reals. `null` never reaches it (refused before).
private struct SortedPropertyList: Encodable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for key in members.keys.sorted() {
                try container.encode(SortedPropertyList(members[key]!), forKey: Key(stringValue: key))
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(SortedPropertyList(element)) }
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if let integer = value.intValue { try container.encode(integer) } else { try container.encode(number) }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .null:
            throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: "a property list has no null"))
        }
    }
}
