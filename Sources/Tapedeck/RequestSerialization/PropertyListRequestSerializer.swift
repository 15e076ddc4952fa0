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
@dynamicMemberLookup
public struct PropertyListRequestSerializer: RequestSerializer, BodyParameterEncoding {
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

    /// Reads and writes ``base``'s properties, e.g. `serializer.timeoutInterval = 5`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<HTTPRequestSerializer, Value>) -> Value {
        get { base[keyPath: keyPath] }
        set { base[keyPath: keyPath] = newValue }
    }

    /// A new request with ``base``'s defaults applied and `parameters` serialized.
    ///
    /// - Throws: ``RequestSerializationError/invalidPropertyListParameters(url:underlying:)`` (code 3851) when
    ///   the parameters cannot be written as a property list.
    public func request(method: HTTPMethod, url: URL, parameters: JSONValue?) throws -> HTTPRequest {
        try serialize(base.makeRequest(method: method, url: url), parameters: parameters)
    }

    /// `request` with ``base``'s default headers added and `parameters` in its query (URI methods) or as a
    /// property-list body.
    ///
    /// - Throws: as ``request(method:url:parameters:)``.
    public func serialize(_ request: HTTPRequest, parameters: JSONValue?) throws -> HTTPRequest {
        try serializingBody(request, parameters: parameters)
    }

    /// Sends `Authorization: Basic …` with every request; see
    /// ``HTTPRequestSerializer/setAuthorization(username:password:)``.
    public mutating func setAuthorization(username: String, password: String) {
        base.setAuthorization(username: username, password: password)
    }

    /// Stops sending a default `Authorization` header.
    public mutating func clearAuthorization() {
        base.clearAuthorization()
    }
}

extension PropertyListRequestSerializer {
    var bodyContentType: String { "application/x-plist" }

    func encodeBody(_ parameters: JSONValue, url: URL) throws -> Data {
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
