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
    /// (cancels it, stops the server, sends the next one) rather than after a guessed pause; gives up after `limit`.
    /// Whether a request arrived.
    ///
    /// ```swift
    /// let task = Task { try await transport.send(HTTPRequest(url: server.url("/hang"))) }
    /// try #require(try await server.waitForRequest(), "the request reached the server")
    /// ```
    @discardableResult
    public func waitForRequest(within limit: Duration = .seconds(20)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while journal.entries.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return !journal.entries.isEmpty
    }
}
