import Foundation
import TapedeckCassette
import TapedeckTesting
import XCTest

/// The XCTest helper, light: `withCassette` replays the committed cassette.
final class LightSetXCTests: XCTestCase {
    func testReplaysACommittedCassette() async throws {
        try await withCassette("greeting") { transport in
            let response = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.test/v1/greeting")!))
            XCTAssertEqual(response.statusCode, 200)
        }
    }
}
