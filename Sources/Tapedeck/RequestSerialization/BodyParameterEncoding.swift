import Foundation

/// A request serializer that sends parameters as a body in a format of its own, on top of ``HTTPRequestSerializer``:
/// methods in ``HTTPRequestSerializer/methodsEncodingParametersInURI`` (`GET`, `HEAD`, `DELETE`) get their
/// parameters in the query, as the form serializer puts them; other methods get ``base``'s default headers, a
/// `Content-Type` of ``bodyContentType`` unless the request has one, and the parameters encoded by
/// ``encodeBody(_:url:)``. ``JSONRequestSerializer`` and ``PropertyListRequestSerializer`` are the two that ship,
/// as AFNetworking's subclasses of `AFHTTPRequestSerializer`.
///
/// ``base``'s properties read and write through the serializer itself:
///
/// ```swift
/// var serializer = JSONRequestSerializer()
/// serializer.timeoutInterval = 10
/// serializer.defaultHeaders["X-Key"] = "1"
/// let request = try serializer.request(method: .post, url: URL(string: "http://127.0.0.1:8080/post")!,
///                                      parameters: ["key": "value"])
/// ```
@dynamicMemberLookup
public protocol BodyParameterEncoding: RequestSerializer {
    /// The default headers, timeout, URI methods and query encoding this serializer shares with
    /// ``HTTPRequestSerializer``.
    var base: HTTPRequestSerializer { get set }
    /// The `Content-Type` of an encoded body.
    var bodyContentType: String { get }
    /// `parameters` in the serializer's format, or a ``RequestSerializationError`` naming `url`.
    func encodeBody(_ parameters: JSONValue, url: URL) throws -> Data
}

extension BodyParameterEncoding {
    /// Reads and writes ``base``'s properties, e.g. `serializer.defaultHeaders["X-Key"] = "1"`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<HTTPRequestSerializer, Value>) -> Value {
        get { base[keyPath: keyPath] }
        set { base[keyPath: keyPath] = newValue }
    }

    /// A new request with ``base``'s defaults applied and `parameters` serialized.
    ///
    /// - Throws: the ``RequestSerializationError`` of ``encodeBody(_:url:)`` when the parameters cannot be encoded.
    public func request(method: HTTPMethod, url: URL, parameters: JSONValue?) throws -> HTTPRequest {
        try serialize(base.makeRequest(method: method, url: url), parameters: parameters)
    }

    /// `request` with ``base``'s default headers added and `parameters` in its query (URI methods) or as a body.
    ///
    /// - Throws: as ``request(method:url:parameters:)``.
    public func serialize(_ request: HTTPRequest, parameters: JSONValue?) throws -> HTTPRequest {
        if base.encodesParametersInURI(request.method) {
            return try base.serialize(request, parameters: parameters)
        }
        var result = base.applyingDefaultHeaders(to: request)
        guard let parameters else { return result }
        if !result.headers.contains("Content-Type") {
            result.headers["Content-Type"] = bodyContentType
        }
        result.body = .data(try encodeBody(parameters, url: request.url))
        return result
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
