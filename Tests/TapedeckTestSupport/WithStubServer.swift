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
