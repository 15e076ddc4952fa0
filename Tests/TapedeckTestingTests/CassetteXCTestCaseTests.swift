import Foundation
import TapedeckCore
import TapedeckTesting
import XCTest

final class CassetteXCTestCaseTests: XCTestCase {
    func testReplaysTheCommittedCassette() async throws {
        try await withCassette { transport in
            let request = HTTPRequest(url: URL(string: "https://api.example.test/v1/me")!, headers: ["Accept": "application/json"])
            let response = try await transport.send(request)
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.data, Data(#"{"id":7,"name":"Ada"}"#.utf8))
        }
    }

    /// Failures recorded while ``capturing`` is on are kept here instead of failing the test.
    private let captured = Locked<[(description: String, line: Int)]?>(nil)

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        let kept = captured.withLock { captured -> Bool in
            guard captured != nil else { return false }
            captured?.append((description, lineNumber))
            return true
        }
        if !kept { super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected) }
    }

    func testAMissingCassetteFailsAtTheCallSite() async throws {
        captured.withLock { $0 = [] }
        let line = #line + 1
        try await withCassette("no-such-cassette") { _ in XCTFail("the body must not run") }
        let failures = captured.withLock { captured in
            defer { captured = nil }
            return captured ?? []
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.description.contains("no-such-cassette.json") == true)
        XCTAssertEqual(failures.first?.line, line)
    }

    func testWithStubServerServesTheBody() async throws {
        try await withStubServer(configure: { $0.route(.get, "/hello", response: .text("world")) }) { server in
            let response = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
            XCTAssertEqual(response.data, Data("world".utf8))
        }
    }
}
