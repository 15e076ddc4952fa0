import Foundation

/// A request for any ``HTTPTransport``: what to send, where, and how the answer should be delivered.
///
/// ```swift
/// var request = HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:8080/echo")!)
/// request.headers["Content-Type"] = "application/json"
/// request.body = .data(Data(#"{"hello":"world"}"#.utf8))
/// request.timeoutInterval = 5
/// let response = try await transport.send(request)
/// ```
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute `http` or `https` URL.
    public var url: URL
    /// Header fields in the order they are sent.
    public var headers: HTTPHeaders
    /// The body to send.
    public var body: HTTPRequestBody
    /// Seconds the transfer may stay idle (no byte connected, sent or received) before it fails with
    /// `URLError.timedOut`, as `URLRequest.timeoutInterval` means it. Default 60.
    public var timeoutInterval: TimeInterval
    /// Seconds the whole transfer may take, or `nil` for no limit (the default).
    public var totalTimeout: TimeInterval?
    /// Whether and how far a session (`SessionPipeline`: the client stack, the URLSession and OpenAPI doors,
    /// `SessionTransport`) follows redirects, hop by hop. Transports never follow them: they deliver each `3xx`.
    public var redirectPolicy: RedirectPolicy
    /// How the server is authenticated over HTTPS.
    public var tls: TLSSettings
    /// Which HTTP versions the transport may negotiate.
    public var httpVersion: HTTPVersionPreference
    /// Where the response body goes.
    public var responseBody: ResponseBodyDestination
    /// Whether a session adds stored cookies to the request and stores the cookies its responses set
    /// (`URLRequest.httpShouldHandleCookies`). Default `true`. Transports ignore it.
    public var shouldHandleCookies: Bool
    /// How a session's HTTP cache may answer the request (`URLRequest.cachePolicy`). Transports ignore it.
    public var cachePolicy: CachePolicy
    /// Whether a transport that writes the body to a file (``ResponseBodyDestination/file(_:)``) also reports each
    /// piece it writes as a `bodyChunk` event, so that a recorder captures the body as it arrives instead of reading
    /// the file back. A transport that does not is still correct: the recorder then reads the file.
    package var reportsFileBodyChunks = false

    /// Creates a request.
    public init(
        method: HTTPMethod = .get,
        url: URL,
        headers: HTTPHeaders = [:],
        body: HTTPRequestBody = .none,
        timeoutInterval: TimeInterval = 60,
        totalTimeout: TimeInterval? = nil,
        redirectPolicy: RedirectPolicy = .follow(maximum: 16),
        tls: TLSSettings = .default,
        httpVersion: HTTPVersionPreference = .automatic,
        responseBody: ResponseBodyDestination = .memory,
        shouldHandleCookies: Bool = true,
        cachePolicy: CachePolicy = .useProtocolCachePolicy
    ) {
        self.shouldHandleCookies = shouldHandleCookies
        self.cachePolicy = cachePolicy
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutInterval = timeoutInterval
        self.totalTimeout = totalTimeout
        self.redirectPolicy = redirectPolicy
        self.tls = tls
        self.httpVersion = httpVersion
        self.responseBody = responseBody
    }
}

/// Whether a session follows redirects (transports never do: each hop is a request of its own).
public enum RedirectPolicy: Hashable, Sendable {
    /// Deliver a 3xx response as it is.
    case none
    /// Follow up to `maximum` redirects; one more fails with `URLError.httpTooManyRedirects`.
    case follow(maximum: Int)
}

/// The HTTP versions a transport may use.
public enum HTTPVersionPreference: Hashable, Sendable {
    /// HTTP/2 over TLS where the server offers it (ALPN), HTTP/1.1 otherwise.
    case automatic
    /// HTTP/1.1 only.
    case http1_1
    /// HTTP/2: negotiated over TLS, or with prior knowledge over cleartext.
    case http2
}

/// Where a response body is delivered.
public enum ResponseBodyDestination: Hashable, Sendable {
    /// Collected in memory and returned in ``HTTPResponse/body``.
    case memory
    /// Written to this file as it arrives (created or truncated); memory stays flat whatever the size.
    case file(URL)
    /// Delivered chunk by chunk as ``HTTPTransportEvent/bodyChunk(_:)`` events and not kept.
    case stream
    /// Continues a partial download in this file: when the answer is `206 Partial Content` the body is written after
    /// the file's first `existingLength` bytes; any other answer replaces the file, so a server that ignores `Range`
    /// restarts the download cleanly. A hop a session follows or answers (a `3xx` with a `Location`, a `401`/`407`)
    /// leaves the file as it is and keeps its own body in memory. Pair it with a `Range: bytes=<existingLength>-`
    /// request header.
    case resumingFile(URL, existingLength: Int64)
}
