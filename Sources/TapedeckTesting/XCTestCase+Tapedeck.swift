import Foundation
import TapedeckCassette
import TapedeckCore
#if StubServer
import TapedeckStubServer
#endif
import XCTest

/// Tapedeck for XCTest: a cassette or a stub server around a block of a test, and the fault and reachability
/// sweeps that run a test body once per failure it should survive.
extension XCTestCase {
    /// Runs `body` with a cassette named after this test (`Cassettes/<Module>/<TestCaseClass>/<testMethod>.json` in
    /// the package that holds `file`), and reports unmatched requests, a missing cassette in replay and (with
    /// `requireAllPlayed`) unplayed interactions as failures at the call site.
    ///
    /// ```swift
    /// func testProfile() async throws {
    ///     try await withCassette { transport in
    ///         let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1")!, transport: transport)
    ///         let profile = try await api.get("me")
    ///         XCTAssertEqual(profile.response?.statusCode, 200)
    ///     }
    /// }
    /// ```
    ///
    /// A recording made while the test failed (an XCTest failure recorded while `body` ran, an error it threw, or a
    /// cassette failure) is discarded, or kept as `onTestFailure` says (see ``FailedTestRecording``); the log says
    /// which.
    ///
    /// - Throws: what `body` throws, except cassette errors, which become test failures.
    public func withCassette(
        _ name: String? = nil, mode: RecordMode = .replay, configuration: CassetteConfiguration = CassetteConfiguration(),
        root: URL? = nil, requireAllPlayed: Bool = false, upstream: (any HTTPTransport)? = nil,
        onTestFailure: FailedTestRecording = .discard,
        file: StaticString = #filePath, line: UInt = #line,
        _ body: @Sendable (any HTTPTransport) async throws -> Void
    ) async throws {
        let run = testRun
        try await withCassette(
            name, mode: mode, configuration: configuration, root: root, requireAllPlayed: requireAllPlayed, upstream: upstream,
            onTestFailure: onTestFailure, failureCount: { run?.totalFailureCount ?? 0 }, file: file, line: line, body)
    }

    /// ``withCassette(_:mode:configuration:root:requireAllPlayed:upstream:onTestFailure:file:line:_:)`` with the
    /// test's failures counted by `failureCount` (XCTest's run, or a test's own counter).
    func withCassette(
        _ name: String?, mode: RecordMode, configuration: CassetteConfiguration, root: URL?, requireAllPlayed: Bool,
        upstream: (any HTTPTransport)?, onTestFailure: FailedTestRecording, failureCount: () -> Int,
        file: StaticString, line: UInt, _ body: @Sendable (any HTTPTransport) async throws -> Void
    ) async throws {
        let url = CassetteLocation.url(
            name: name, suitePath: String(reflecting: type(of: self)).split(separator: ".").map(String.init),
            testName: self.name, arguments: [],
            sourceFile: "\(file)", root: root)
        let scope = CassetteScope(
            cassette: url, mode: mode, configuration: configuration, requireAllPlayed: requireAllPlayed, upstream: upstream,
            onTestFailure: onTestFailure)
        let before = failureCount()
        let failures = try await scope.run(body, testFailed: { failureCount() > before })
        for failure in failures {
            // XCTest has no warnings: those go to the log, the rest fail the test.
            if failure.isWarning { print("warning: \(failure.description)") } else { XCTFail(failure.description, file: file, line: line) }
        }
    }

    #if StubServer
    /// Runs `body` with a fresh `StubServer` (its transport is also ``TapedeckTest/transport``), and stops it after.
    ///
    /// ```swift
    /// func testHello() async throws {
    ///     try await withStubServer(configure: { $0.route(.get, "/hello", response: .text("world")) }) { server in
    ///         let response = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
    ///         XCTAssertEqual(response.data, Data("world".utf8))
    ///     }
    /// }
    /// ```
    public func withStubServer(
        _ configuration: StubServer.Configuration = StubServer.Configuration(), httpbin: Bool = false,
        configure: (StubServer) throws -> Void = { _ in },
        _ body: @Sendable (StubServer) async throws -> Void
    ) async throws {
        try await TapedeckTest.withStubServer(configuration, httpbin: httpbin, configure: configure, body)
    }
    #endif
}
