import Foundation
import TapedeckCore
#if Curl
import Tapedeck
#endif
#if StubServer
import TapedeckStubServer
#endif

/// What the current test uses, as task-local values: each test (and each task it starts) sees its own, so tests
/// running in parallel never share a cassette or a stub server by accident.
///
/// The `.cassette(…)` and `.stubServer(…)` traits, and `withCassette` / `withStubServer` on `XCTestCase`, set them
/// for the duration of a test.
///
/// ```swift
/// @Test(.cassette("login"))
/// func login() async throws {
///     let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1")!, transport: TapedeckTest.transport)
///     let me = try await api.get("me")
///     #expect(me.response?.statusCode == 200)
/// }
/// ```
public enum TapedeckTest {
    /// The transport of the current test's cassette or stub server, if a trait or helper set one.
    @TaskLocal public static var currentTransport: (any HTTPTransport)?

    #if StubServer
    /// The current test's stub server, if the `.stubServer(…)` trait or `withStubServer` started one.
    @TaskLocal public static var currentStubServer: StubServer?
    #endif

    #if Curl
    /// The simulated network of the current ``ReachabilitySweep`` case, if the test runs under one.
    @TaskLocal public static var currentNetwork: SimulatedNetwork?
    #endif

    /// The current test's transport; a test without a cassette or stub server gets a transport that fails every
    /// request with a message saying so, rather than one that silently reaches the network.
    public static var transport: any HTTPTransport {
        currentTransport ?? MissingTestTransport()
    }

    #if StubServer
    /// Starts a stub server (with httpbin's routes when asked), lets `configure` add to it, and runs `body` with it as
    /// the current server and transport; the server stops when `body` returns. What the trait and `withStubServer`
    /// share.
    static func withStubServer(
        _ configuration: StubServer.Configuration, httpbin: Bool, configure: (StubServer) throws -> Void,
        _ body: (StubServer) async throws -> Void
    ) async throws {
        let server = httpbin ? try StubServer.httpbin(configuration: configuration) : try StubServer(configuration: configuration)
        defer { server.stop() }
        try configure(server)
        try await $currentStubServer.withValue(server) {
            try await $currentTransport.withValue(server.transport()) { try await body(server) }
        }
    }
    #endif
}

/// Fails every request: the test asked for ``TapedeckTest/transport`` outside a cassette or stub-server scope.
struct MissingTestTransport: HTTPTransport {
    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        throw URLError(
            .notConnectedToInternet, failingURL: request.url,
            reason: "TapedeckTest.transport was used outside a cassette or stub server: add .cassette(…) or "
                + ".stubServer(…) to the test, or wrap it in withCassette / withStubServer")
    }
}
