import Foundation
import TapedeckCore
import TapedeckTestSupport
import TapedeckTesting
import XCTest

/// The XCTest reachability sweep runs every condition, in order, with the status each implies.
final class ReachabilitySweepXCTests: XCTestCase {
    func testEveryConditionRunsWithItsNetwork() async throws {
        let seen = Locked<[String]>([])
        await sweepReachability { condition, network, transport in
            let failed = await (try? transport.send(HTTPRequest(url: URL(string: "https://api.example.test/")!))) == nil
            seen.value.append("\(condition): \(network.status) \(failed ? "refused" : "sent")")
        }
        // Outside a cassette the underlying transport refuses too, so only the status tells the conditions apart.
        XCTAssertEqual(seen.value, [
            "offline: Not Reachable refused", "Wi-Fi: Reachable via WiFi refused", "cellular: Reachable via WWAN refused",
            "Wi-Fi, then offline after 1 request(s): Reachable via WiFi refused",
        ])
    }
}
