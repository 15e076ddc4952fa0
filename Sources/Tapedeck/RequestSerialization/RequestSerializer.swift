import Foundation

/// Builds `HTTPRequest` values from a method, a URL and parameters (AFNetworking's `AFURLRequestSerialization`).
///
/// Conforming types: ``HTTPRequestSerializer`` (query string / form body), ``JSONRequestSerializer`` and
/// ``PropertyListRequestSerializer``. Every serializer can also build multipart requests
/// (``multipartRequest(method:url:parameters:boundary:constructingBody:)``).
///
/// ```swift
/// let serializer: any RequestSerializer = JSONRequestSerializer()
/// let request = try serializer.request(method: .post, url: URL(string: "http://127.0.0.1:8080/post")!,
///                                      parameters: ["name": "tapedeck"])
/// ```
public protocol RequestSerializer: Sendable {
    /// A new request for `method` and `url` with the serializer's defaults applied (default headers, timeout),
    /// then `parameters` serialized into it (AFNetworking's `requestWithMethod:URLString:parameters:error:`).
    ///
    /// - Throws: ``RequestSerializationError``.
    func request(method: HTTPMethod, url: URL, parameters: JSONValue?) throws -> HTTPRequest

    /// `request` with the serializer's default headers added where the request has no field of that name, and
    /// `parameters` serialized into its URL or body (AFNetworking's
    /// `requestBySerializingRequest:withParameters:error:`). The request's timeout is left as it is.
    ///
    /// - Throws: ``RequestSerializationError``.
    func serialize(_ request: HTTPRequest, parameters: JSONValue?) throws -> HTTPRequest
}

extension RequestSerializer {
    /// ``request(method:url:parameters:)`` for a URL given as a string.
    ///
    /// As in AFNetworking, any string `URL(string:)` accepts is used, relative ones included.
    ///
    /// - Throws: ``RequestSerializationError/invalidURLString(_:)`` when the string is not a URL, or what
    ///   ``request(method:url:parameters:)`` throws.
    public func request(method: HTTPMethod, urlString: String, parameters: JSONValue?) throws -> HTTPRequest {
        guard let url = URL(string: urlString) else {
            throw RequestSerializationError.invalidURLString(urlString)
        }
        return try request(method: method, url: url, parameters: parameters)
    }
}
