import Foundation
import HTTPTypes
import OpenAPIRuntime
import TapedeckCore

/// OpenAPI's request (`HTTPTypes.HTTPRequest` and an `HTTPBody`) → Tapedeck's request, and a Tapedeck response head →
/// `HTTPTypes.HTTPResponse`. Pure: no I/O, nothing read from a body.
enum OpenAPIMessageConversion {
    /// The Tapedeck request for `request` and `body` sent to `baseURL`, with the transfer settings of `configuration`
    /// and the response body delivered as a stream.
    ///
    /// Header fields keep their order, spelling and repetitions. The body is never read here: it becomes a stream body
    /// whose chunks are pulled from `body` as the transport sends them, of the body's length when known and with
    /// chunked transfer encoding when not.
    static func tapedeckRequest(
        from request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL,
        configuration: TapedeckClientTransport.Configuration
    ) throws -> TapedeckCore.HTTPRequest {
        let url = try OpenAPIURL.joining(request.path ?? "", to: baseURL)
        var headers = TapedeckCore.HTTPHeaders()
        for field in request.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        return TapedeckCore.HTTPRequest(
            method: TapedeckCore.HTTPMethod(request.method.rawValue),
            url: url,
            headers: headers,
            body: body.map(streamBody) ?? .none,
            timeoutInterval: configuration.timeoutInterval,
            totalTimeout: configuration.totalTimeout,
            redirectPolicy: configuration.redirectPolicy,
            tls: configuration.tls,
            httpVersion: configuration.httpVersion,
            responseBody: .stream
        )
    }

    /// `body` as a request body that the transport pulls chunk by chunk.
    static func streamBody(_ body: HTTPBody) -> HTTPRequestBody {
        let length: Int64? = if case .known(let count) = body.length { count } else { nil }
        return .stream(HTTPBodyStream(length: length) { body.map { Data($0) } })
    }

    /// The OpenAPI response for a Tapedeck response head.
    ///
    /// - Throws: ``OpenAPITransportError`` when a header field name or the status code cannot be represented.
    static func openAPIResponse(from head: HTTPResponseHead) throws -> HTTPTypes.HTTPResponse {
        guard (0...999).contains(head.statusCode) else {
            throw OpenAPITransportError.invalidStatusCode(head.statusCode, url: head.url)
        }
        var fields = HTTPFields()
        fields.reserveCapacity(head.headers.count)
        for field in head.headers {
            guard let name = HTTPField.Name(field.name) else {
                throw OpenAPITransportError.invalidResponseHeaderName(field.name, url: head.url)
            }
            fields.append(HTTPField(name: name, value: field.value))
        }
        return HTTPTypes.HTTPResponse(
            status: .init(code: head.statusCode, reasonPhrase: head.reasonPhrase), headerFields: fields
        )
    }

    /// Whether a response to `method` with `statusCode` has no body by definition (RFC 9110): an answer to `HEAD`,
    /// or a `1xx`, `204` or `304`.
    static func hasNoBody(method: HTTPTypes.HTTPRequest.Method, statusCode: Int) -> Bool {
        method == .head || (100..<200).contains(statusCode) || statusCode == 204 || statusCode == 304
    }

    /// The length an `HTTPBody` can promise for the response body: its `Content-Length`, unless a `Content-Encoding`
    /// other than `identity` means the transport may deliver more (decoded) bytes than that.
    static func responseBodyLength(of head: HTTPResponseHead) -> HTTPBody.Length {
        let encoding = head.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased()
        guard encoding == nil || encoding == "identity", let length = head.expectedContentLength else { return .unknown }
        return .known(length)
    }
}
