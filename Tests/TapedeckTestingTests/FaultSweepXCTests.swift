import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckTesting
import XCTest

/// `sweepFaults` in XCTest: one failure per pair not handled, naming it; none for known failures.
final class FaultSweepXCTests: XCTestCase {
    /// Failures recorded while capturing are kept here instead of failing the test.
    private let captured = Locked<[String]?>(nil)

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        let kept = captured.withLock { captured -> Bool in
            guard captured != nil else { return false }
            captured?.append(description)
            return true
        }
        if !kept { super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected) }
    }

    private var flow: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Cassettes/TapedeckTestingTests/FaultSweepTests/profileFlow.json")
    }

    func testTheCorrectClientPassesEveryPair() async throws {
        let sweep = try FaultSweep(cassette: flow, clock: InstantWallClock())
        let report = await sweepFaults(sweep) { sweepCase, transport in
            _ = try await ProfileClient(transport: transport, clock: sweepCase.clock).run()
        }
        XCTAssertTrue(report.succeeded)
        XCTAssertEqual(report.results.count, 21)
    }

    func testEachPairNotHandledFailsTheTestNamingIt() async throws {
        let sweep = try FaultSweep(cassette: flow, faults: [.serviceUnavailable, .truncatedBody],
                                   known: ["GET /v1/me · body cut short"], clock: InstantWallClock())
        captured.withLock { $0 = [] }
        let report = await sweepFaults(sweep) { sweepCase, transport in
            _ = try await ProfileClient(transport: transport, clock: sweepCase.clock, ignoresRetryAfter: true, trustsTheBody: true).run()
        }
        let failures = captured.withLock { captured in
            defer { captured = nil }
            return captured ?? []
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("GET /v1/me · 503 with Retry-After: unavailable(503)") == true, "\(failures)")
        XCTAssertEqual(report.results(.knownFailure).map(\.name), ["GET /v1/me · body cut short"])
    }
}
