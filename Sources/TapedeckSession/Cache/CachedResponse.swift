import Foundation

/// A response as the HTTP cache keeps it: status, headers and body, with what the cache needs to judge it later (when
/// it was requested and received, and the request header values its `Vary` names).
///
/// The ``HTTPCache/willCacheResponse`` hook sees one before it is stored and may return a changed copy.
///
/// ```swift
/// cache.willCacheResponse = { cached in
///     var cached = cached
///     cached.headers.remove(name: "Set-Cookie")
///     return cached
/// }
/// ```
public struct CachedResponse: Hashable, Sendable {
    /// The status code, e.g. `200`.
    public var statusCode: Int
    /// The reason phrase, e.g. `"OK"` (may be empty).
    public var reasonPhrase: String
    /// The response's header fields, without hop-by-hop fields (`Connection`, `Transfer-Encoding`, …).
    public var headers: HTTPHeaders
    /// The response body.
    public var body: Data
    /// The URL that answered.
    public var url: URL
    /// The method of the request that was answered (`GET`).
    public var requestMethod: HTTPMethod
    /// When the request that produced (or last revalidated) this response was sent: RFC 9111's `request_time`.
    public var requestTime: Date
    /// When the response was received and stored (or last revalidated): RFC 9111's `response_time`.
    public var responseTime: Date
    /// The request's values of the header fields the response's `Vary` names; a field the request did not send is
    /// absent here too. A later request matches only when it sends the same values.
    public var varyingRequestHeaders: HTTPHeaders

    /// Creates a cached response.
    public init(
        statusCode: Int, reasonPhrase: String = "", headers: HTTPHeaders, body: Data, url: URL,
        requestMethod: HTTPMethod = .get, requestTime: Date, responseTime: Date, varyingRequestHeaders: HTTPHeaders = [:]
    ) {
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.body = body
        self.url = url
        self.requestMethod = requestMethod
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyingRequestHeaders = varyingRequestHeaders
    }

    /// The response as a client receives it: this status, headers and in-memory body.
    public var httpResponse: HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(statusCode: statusCode, reasonPhrase: reasonPhrase, headers: headers, url: url),
                     body: .data(body))
    }
}
