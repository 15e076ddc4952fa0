import Foundation
import HTTPTypes
import OpenAPIRuntime
import TapedeckCore
import TapedeckSession

/// A swift-openapi-runtime `ClientTransport` over any Tapedeck `TapedeckCore/HTTPTransport`, so a client made by
/// swift-openapi-generator runs over live libcurl, a cassette, or a stub server.
///
/// ```swift
/// import TapedeckCassette
/// import TapedeckCurl
/// import TapedeckOpenAPI
///
/// let recorder = try CassetteTransport(cassette: cassetteURL, mode: .once, upstream: CurlTransport())
/// let client = Client(serverURL: URL(string: "https://api.example.com/v1")!,
///                     transport: TapedeckClientTransport(recorder))
/// let response = try await client.getGreeting(query: .init(name: "Ada"))
/// ```
///
/// How a request is sent:
/// - The URL is the base URL followed by the request's path and query, as OpenAPI server URLs are meant
///   (`https://api.example.com/v1` + `/users?page=2`); the request's own scheme and authority are not used.
/// - Header fields keep their order, spelling and repetitions.
/// - The body is streamed: its chunks are pulled as the transport sends them, with a `Content-Length` when the body's
///   length is known and chunked transfer encoding when it is not, so a large or endless body is never gathered
///   into memory first. A body that can be iterated only once cannot be sent again by a transport that must restart
///   it (a redirect that keeps the body); that attempt fails with the runtime's error saying so.
/// - What a session does above the wire runs in ``session``, the same `TapedeckSession/SessionPipeline` the client
///   stack and the URLSession adapter use: cookies (a store of the transport's own by default), redirects hop by hop
///   (each hop is its own request to ``transport``, so a cassette holds one interaction per hop), challenges,
///   retries. Timeouts, TLS and the HTTP version follow ``Configuration``; its `redirectPolicy` caps the hops. With
///   a cache in the session, response bodies come whole rather than streamed (the cache keeps whole responses).
///
/// How the response comes back:
/// - `send` returns as soon as the response head has arrived; the body is an `HTTPBody` that yields the chunks as
///   the transport delivers them, with the `Content-Length` as its length when the body is not content-encoded.
///   Tapedeck's transports cannot pause a transfer for a slow reader, so unread chunks wait in memory.
/// - An answer that has no body by definition (to `HEAD`, or `1xx`, `204`, `304`) comes back with a `nil` body after
///   the transfer has completed.
/// - Any status is returned as it is: an undocumented one reaches the generated client as `.undocumented`.
///
/// Errors: the transport's errors are thrown unchanged (`URLError` for Tapedeck's transports, a cassette's own
/// errors), and the runtime hands them to the caller as the `underlyingError` of a `ClientError`; an error in the body
/// after the head is thrown by the body's iterator. Cancelling the task that calls the client, or the task reading
/// the body, cancels the transfer (`URLError.cancelled` before the head, `CancellationError` from the body's
/// iterator); dropping an unread body cancels it too.
public struct TapedeckClientTransport: ClientTransport {
    /// How requests are sent, beyond what the OpenAPI request says.
    public struct Configuration: Sendable {
        /// Seconds a transfer may stay idle before it fails with `URLError.timedOut`. Default 60.
        public var timeoutInterval: TimeInterval
        /// Seconds a whole transfer may take, `nil` for no limit (the default). The body counts: a client that
        /// reads a long stream should leave it `nil`.
        public var totalTimeout: TimeInterval?
        /// Whether and how far redirects are followed. Default: up to 16.
        public var redirectPolicy: RedirectPolicy
        /// How an HTTPS server is authenticated. Default: the system's trust store.
        public var tls: TLSSettings
        /// Which HTTP versions may be negotiated. Default: automatic.
        public var httpVersion: HTTPVersionPreference

        /// Creates a configuration; every argument has the default that `TapedeckCore/HTTPRequest` has.
        public init(
            timeoutInterval: TimeInterval = 60,
            totalTimeout: TimeInterval? = nil,
            redirectPolicy: RedirectPolicy = .follow(maximum: 16),
            tls: TLSSettings = .default,
            httpVersion: HTTPVersionPreference = .automatic
        ) {
            self.timeoutInterval = timeoutInterval
            self.totalTimeout = totalTimeout
            self.redirectPolicy = redirectPolicy
            self.tls = tls
            self.httpVersion = httpVersion
        }
    }

    /// Where the requests go.
    public let transport: any HTTPTransport
    /// How requests are sent.
    public var configuration: Configuration
    /// Cookies, redirects, cache, challenges and retries, as every door does them.
    public var session: SessionPipeline

    /// A client transport that sends every request through `transport`.
    ///
    /// ```swift
    /// let client = Client(serverURL: server.url("/"), transport: TapedeckClientTransport(server.transport()))
    /// ```
    public init(_ transport: any HTTPTransport, configuration: Configuration = Configuration(),
                session: SessionPipeline = SessionPipeline()) {
        self.transport = transport
        self.configuration = configuration
        self.session = session
    }

    /// Sends `request` with `body` to `baseURL` and returns the response head with its body still streaming.
    ///
    /// - Throws: ``OpenAPITransportError`` when the request's path does not join the base URL or the response cannot
    ///   be represented; otherwise the transport's error.
    public func send(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        var outgoing = try OpenAPIMessageConversion.tapedeckRequest(
            from: request, body: body, baseURL: baseURL, configuration: configuration
        )
        // The session cache keeps whole in-memory responses: with one, the body arrives whole.
        if session.cache != nil { outgoing.responseBody = .memory }
        let (exchange, responseBody) = StreamedExchange.start(outgoing, on: SessionTransport(transport, pipeline: session))
        let head = try await exchange.head()
        let response: HTTPTypes.HTTPResponse
        do {
            response = try OpenAPIMessageConversion.openAPIResponse(from: head)
        } catch {
            exchange.cancel()
            throw error
        }
        if OpenAPIMessageConversion.hasNoBody(method: request.method, statusCode: head.statusCode) {
            for try await _ in responseBody {}
            return (response, nil)
        }
        let length = OpenAPIMessageConversion.responseBodyLength(of: head)
        return (response, HTTPBody(responseBody, length: length, iterationBehavior: .single))
    }
}
