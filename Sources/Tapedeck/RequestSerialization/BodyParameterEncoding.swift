import Foundation

/// The flow the JSON and property-list serializers share: URI methods (GET, HEAD, DELETE) get their parameters in
/// the query through ``HTTPRequestSerializer``; other methods get ``base``'s default headers, a `Content-Type` unless
/// the request has one, and the parameters encoded as a body in the serializer's own format.
protocol BodyParameterEncoding: RequestSerializer {
    /// The form serializer whose defaults and URI rules apply.
    var base: HTTPRequestSerializer { get }
    /// The `Content-Type` of an encoded body.
    var bodyContentType: String { get }
    /// `parameters` in the serializer's format, or a ``RequestSerializationError`` naming `url`.
    func encodeBody(_ parameters: JSONValue, url: URL) throws -> Data
}

extension BodyParameterEncoding {
    func serializingBody(_ request: HTTPRequest, parameters: JSONValue?) throws -> HTTPRequest {
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
}
