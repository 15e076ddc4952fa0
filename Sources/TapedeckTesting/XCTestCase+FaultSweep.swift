import Foundation
import TapedeckCassette
import TapedeckCore
import XCTest

extension XCTestCase {
    /// Runs `body` once per (interaction, fault) pair of `sweep`, with the case (its ``FaultSweep/Case/clock`` is the
    /// one to wait on) and the faulted replay, and fails the test once for each pair it did not
    /// handle (naming it, `GET /v1/me · reset mid-body: …`) and for each known failure it handled after all. A pair
    /// is not handled when `body` throws, the cassette reports a failure, or the body records an XCTest failure
    /// (which fails the test by itself; a known pair should fail by throwing). The report, skipped pairs included,
    /// is printed and returned.
    ///
    /// ```swift
    /// func testTheProfileSurvivesEveryFault() async throws {
    ///     let sweep = try FaultSweep(cassette: "AppTests/ProfileTests/testLoadsTheProfile", known: ["GET /v1/avatar · timeout"])
    ///     await sweepFaults(sweep) { sweepCase, transport in
    ///         let screen = ProfileScreen(api: HTTPSessionManager(baseURL: apiURL, transport: transport), clock: sweepCase.clock)
    ///         try await screen.load()
    ///     }
    /// }
    /// ```
    @discardableResult
    public func sweepFaults(_ sweep: FaultSweep, file: StaticString = #filePath, line: UInt = #line,
                            _ body: @Sendable (FaultSweep.Case, any HTTPTransport) async throws -> Void) async -> FaultSweepReport {
        var results: [FaultSweepReport.Result] = []
        for sweepCase in sweep.cases {
            let before = testRun?.totalFailureCount ?? 0
            var outcome = await sweepCase.outcome { transport in try await body(sweepCase, transport) }
            if outcome.passed, (testRun?.totalFailureCount ?? 0) > before {
                outcome = (false, "the body recorded an XCTest failure")
            }
            let result = FaultSweepReport.Result(sweepCase.pair, passed: outcome.passed, message: outcome.message)
            results.append(result)
            switch result.verdict {
            case .failed:
                XCTFail("\(result.name): \(result.message ?? "failed")", file: file, line: line)
            case .fixed:
                XCTFail("\(result.name) is listed as a known failure but was handled: remove it from `known`", file: file, line: line)
            case .handled, .knownFailure:
                break
            }
        }
        let report = FaultSweepReport(cassette: sweep.plan.cassette.path, results: results, skipped: sweep.skipped)
        print(report.text)
        return report
    }
}
