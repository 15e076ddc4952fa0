import Foundation
import TapedeckCassette

/// The pure side of `tapedeck sweep`: what each run of the command under test is told, how its exit status becomes
/// a result, and the JUnit form of the report.
///
/// ```swift
/// let plan = try FaultSweepPlan(cassette: url, faults: [.timeout])
/// let variables = FaultSweepRun.environment(for: plan.pairs[0], serverURL: URL(string: "http://127.0.0.1:8080")!)
/// // TAPEDECK_SWEEP_URL, TAPEDECK_SWEEP_CASE ("GET /v1/me · timeout"), TAPEDECK_SWEEP_FAULT, TAPEDECK_SWEEP_INTERACTION
/// ```
public enum FaultSweepRun {
    /// The server's base URL: the command sends its requests there (`http://127.0.0.1:PORT`).
    public static let urlVariable = "TAPEDECK_SWEEP_URL"
    /// The pair's name, `GET /v1/me · timeout`.
    public static let caseVariable = "TAPEDECK_SWEEP_CASE"
    /// The fault's identifier, `timeout`.
    public static let faultVariable = "TAPEDECK_SWEEP_FAULT"
    /// The faulted interaction's position in the cassette.
    public static let interactionVariable = "TAPEDECK_SWEEP_INTERACTION"

    /// The variables added to the command's environment for `pair`, served at `serverURL`.
    public static func environment(for pair: FaultSweepPlan.Pair, serverURL: URL) -> [String: String] {
        var base = serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return [urlVariable: base, caseVariable: pair.name, faultVariable: pair.fault.rawValue, interactionVariable: String(pair.index)]
    }

    /// The result of a run that ended with `status` (0: handled), or was killed by `signal`.
    public static func result(for pair: FaultSweepPlan.Pair, status: Int32, signal: Int32? = nil) -> FaultSweepReport.Result {
        let message: String? = if let signal { "killed by signal \(signal)" } else if status != 0 { "exit status \(status)" } else { nil }
        return FaultSweepReport.Result(pair, passed: status == 0 && signal == nil, message: message)
    }

    /// The report as JUnit: one test case per pair (a known failure passes, a failed or fixed pair fails) and one
    /// skipped test case per skipped pair, with its reason.
    public static func junit(_ report: FaultSweepReport, suite: String = "tapedeck sweep") -> JUnitReport {
        let className = URL(fileURLWithPath: report.cassette).lastPathComponent
        var junit = JUnitReport(suite: suite)
        for result in report.results {
            let failure: String? = switch result.verdict {
            case .handled, .knownFailure: nil
            case .failed: "not handled: \(result.message ?? "failed")"
            case .fixed: "listed as a known failure but handled: remove it from --known"
            }
            let name = result.verdict == .knownFailure ? result.name + " (known failure)" : result.name
            junit.cases.append(.init(name: name, className: className, seconds: 0, failure: failure))
        }
        for skipped in report.skipped {
            junit.cases.append(.init(name: "\(skipped.name) (skipped: \(skipped.reason))", className: className, seconds: 0,
                                     failure: nil, skipped: true))
        }
        return junit
    }
}
