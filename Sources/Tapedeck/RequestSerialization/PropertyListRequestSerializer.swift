import Foundation

/// A request serializer that sends parameters as a property-list body (AFNetworking's
/// `AFPropertyListRequestSerializer`).
///
/// Methods in ``HTTPRequestSerializer/methodsEncodingParametersInURI`` still put the parameters in the query
/// string. Otherwise, when there are parameters, the body is `PropertyListSerialization` output of
/// `parameters.foundationObject` in ``format`` and `Content-Type` is `application/x-plist` unless the request
/// already has one. Property lists have no `null`, so parameters containing one are refused.
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
            return try PropertyListSerialization.data(fromPropertyList: object, format: format.foundationFormat, options: 0)
        } catch {
            throw RequestSerializationError.invalidPropertyListParameters(url: url, underlying: error)
        }
    }
}
