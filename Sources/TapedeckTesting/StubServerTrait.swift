#if StubServer
import Foundation
import TapedeckCore
import TapedeckStubServer
import Testing

/// A Swift Testing trait that starts a `StubServer` for each test and stops it afterwards. The server is
/// ``TapedeckTest/currentStubServer`` and its transport (which routes the configured host names to it and trusts
/// its test CA) is ``TapedeckTest/transport``. Put `.cassette(…)` after it to record the stub's answers.
///
/// ```swift
/// @Test(.stubServer { server in server.route(.get, "/hello", response: .text("world")) })
/// func greets() async throws {
///     let server = try #require(TapedeckTest.currentStubServer)
///     let response = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
///     #expect(response.data == Data("world".utf8))
/// }
/// ```
public struct StubServerTrait: TestTrait, SuiteTrait, TestScoping {
    /// How the server is made (host names, TLS, journal size…).
    public var configuration: StubServer.Configuration
    /// Whether the httpbin-compatible routes are installed first.
    public var httpbin: Bool
    /// Adds the test's routes.
    public var configure: @Sendable (StubServer) throws -> Void

    /// Applied to a suite, each test gets a server of its own.
    public var isRecursive: Bool { true }

    /// Runs the test case with a fresh server.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite, testCase != nil else {
            try await function()
            return
        }
        try await TapedeckTest.withStubServer(configuration, httpbin: httpbin, configure: configure) { _ in try await function() }
    }
}

extension Trait where Self == StubServerTrait {
    /// Starts a stub server for the test; see ``StubServerTrait``.
    public static func stubServer(
        _ configuration: StubServer.Configuration = StubServer.Configuration(), httpbin: Bool = false,
        configure: @escaping @Sendable (StubServer) throws -> Void = { _ in }
    ) -> Self {
        StubServerTrait(configuration: configuration, httpbin: httpbin, configure: configure)
    }
}
#endif
