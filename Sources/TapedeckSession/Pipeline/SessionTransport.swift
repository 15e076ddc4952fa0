import Foundation

/// A transport that does what a session does (cookies, redirect hops, the cache, challenges, retries: a
/// ``SessionPipeline``) over another transport that only moves bytes.
///
/// The door for code that holds an `HTTPTransport` and wants session behaviour without the client stack: direct
/// callers, OpenAPI clients, `tapedeck fetch`. Each hop is its own request to `base`, so a cassette under it records
/// one interaction per hop.
///
/// ```swift
/// let transport = SessionTransport(CurlTransport())              // cookies on, redirects followed hop by hop
/// let response = try await transport.send(HTTPRequest(url: server.url("/cookies/set?k=v")))
/// print(response.url)                                              // …/cookies
/// ```
public struct SessionTransport: HTTPTransport {
    /// Where each hop goes.
    public let base: any HTTPTransport
    /// What is done above it.
    public var pipeline: SessionPipeline

    /// The base transport's recorded time.
    public var recordedTime: (any WallClock)? { base.recordedTime }

    /// A session transport over `base`; by default with a cookie store of its own.
    public init(_ base: any HTTPTransport, pipeline: SessionPipeline = SessionPipeline()) {
        self.base = base
        self.pipeline = pipeline
    }

    /// Sends `request` through the pipeline; `onEvent` sees the final hop's events.
    public func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        try await pipeline.send(request, over: base, onEvent: onEvent)
    }
}
