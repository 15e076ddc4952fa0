import Foundation
import TapedeckStubServer

/// Runs `body` with a started ``StubServer`` and stops the server afterwards, whether `body` returns or throws.
///
/// For tests whose subject is the server or a transport talking to it; a test that only needs a server to talk to can
/// use TapedeckTesting's `.stubServer(…)` trait instead.
///
/// ```swift
/// try await withStubServer(.init(threadCount: 1)) { server in
///     server.route(.get, "/hello", response: .text("world"))
///     let response = try await CurlTransport().send(HTTPRequest(url: server.url("/hello")))
///     #expect(response.data == Data("world".utf8))
/// }
/// ```
public func withStubServer<T>(
    _ configuration: StubServer.Configuration = StubServer.Configuration(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (StubServer) async throws -> T
) async throws -> T {
    let server = try StubServer(configuration: configuration)
    defer { server.stop() }
    return try await body(server)
}

extension StubServer {
    /// Waits until the server's journal holds a request, for a test that acts once a request has reached the server
    /// (cancels it, stops the server, sends the next one) rather than after a guessed pause.
    ///
    /// It throws ``NoRequestArrived`` after `limit` instead of returning, so that no test goes on as if the request
    /// had arrived: one that did suspended a request still on its way, and the request started again on resume
    /// became the server's first. The default limit is five minutes, a safety net only: the full suite queues every
    /// test at once on the cooperative pool's two threads, and the task that sends the request waited over 20 s to
    /// start in a plain run and over 60 s in the ThreadSanitizer step (`cancellingTheCallerCancelsTheTask`,
    /// 2026-11-29).
    ///
    /// ```swift
    /// let task = Task { try await transport.send(HTTPRequest(url: server.url("/hang"))) }
    /// try await server.waitForRequest()
    /// ```
    public func waitForRequest(within limit: Duration = .seconds(300)) async throws {
        let deadline = ContinuousClock.now + limit
        while journal.entries.isEmpty {
            guard ContinuousClock.now < deadline else { throw NoRequestArrived(limit: limit, url: url("/")) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// No request reached a stub server within a test's limit.
public struct NoRequestArrived: Error, CustomStringConvertible {
    public var limit: Duration
    public var url: URL
    public var description: String { "no request reached the stub server at \(url.absoluteString) within \(limit)" }
}
