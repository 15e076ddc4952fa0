import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport
@testable import TapedeckTesting
import XCTest

/// The failed-test rule in XCTest. A real XCTest failure would fail this test too, so the first test counts the
/// body's failures itself through the seam `withCassette` reads XCTest's run through; the others use the public API.
final class FailedTestRecordingXCTests: XCTestCase {
    private func cassette(_ name: String, in directory: TemporaryDirectory) -> URL {
        directory.url.appendingPathComponent("TapedeckTestingTests/FailedTestRecordingXCTests/\(name).json")
    }

    private func helloServer() throws -> StubServer {
        let server = try StubServer()
        server.route(.get, "/hello", response: .text("world"))
        return server
    }

    func testAFailureRecordedWhileTheBodyRanDiscardsTheRecording() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try helloServer()
        defer { server.stop() }
        let failures = Locked(0)
        try await withCassette(
            "failing", mode: .once, configuration: CassetteConfiguration(), root: directory.url, requireAllPlayed: false,
            upstream: server.transport(), onTestFailure: .discard, failureCount: { failures.value }, file: #filePath, line: #line
        ) { transport in
            _ = try await transport.send(HTTPRequest(url: server.url("/hello")))
            failures.value += 1  // what an XCTAssert failing here does to the run's count
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cassette("failing", in: directory).path))
    }

    func testAPassingBodyKeepsItsRecording() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try helloServer()
        defer { server.stop() }
        try await withCassette("passing", mode: .once, root: directory.url, upstream: server.transport()) { transport in
            _ = try await transport.send(HTTPRequest(url: server.url("/hello")))
        }
        XCTAssertEqual(try CassetteFile.load(cassette("passing", in: directory)).interactions.count, 1)
    }

    func testAThrownErrorKeepsTheRecordingAsFailedJSON() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try helloServer()
        defer { server.stop() }
        do {
            try await withCassette("thrown", mode: .once, root: directory.url, upstream: server.transport(), onTestFailure: .keepAsFailed) { transport in
                _ = try await transport.send(HTTPRequest(url: server.url("/hello")))
                throw URLError(.cannotParseResponse)
            }
            XCTFail("the body's error must reach the test")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .cannotParseResponse)
        }
        let file = cassette("thrown", in: directory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual(try CassetteFile.load(FailedTestRecording.failedURL(for: file)).interactions.count, 1)
    }
}
