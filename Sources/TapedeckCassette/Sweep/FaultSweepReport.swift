import Foundation

/// What a fault sweep found: for each pair whether the code under test handled it, and which pairs were skipped.
/// The same sweep gives the same report on every run (no times, pairs in plan order), so reports can be diffed.
///
/// ```swift
/// let report = await sweep.run { sweepCase, transport in try await client(transport).loadProfile() }
/// print(report.text)                      // one line per pair, then the skipped ones
/// try report.json().write(to: URL(fileURLWithPath: "sweep.json"))
/// ```
public struct FaultSweepReport: Sendable, Hashable, Codable {
    /// How one pair went.
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// The test passed under the fault.
        case handled
        /// The test failed under the fault.
        case failed
        /// The test failed, as a ``KnownFailure`` said it would.
        case knownFailure
        /// The test passed although a ``KnownFailure`` said it would fail: the known failure can go.
        case fixed
    }

    /// One pair's result.
    public struct Result: Sendable, Hashable, Codable, CustomStringConvertible {
        /// `GET /v1/me · reset mid-body`.
        public var name: String
        /// The interaction's position in the cassette.
        public var index: Int
        /// The fault's identifier.
        public var fault: InteractionFault
        /// How it went.
        public var verdict: Verdict
        /// Why the test failed (its first issue or error), when it did.
        public var message: String?

        /// Creates a result.
        public init(name: String, index: Int, fault: InteractionFault, verdict: Verdict, message: String? = nil) {
            self.name = name
            self.index = index
            self.fault = fault
            self.verdict = verdict
            self.message = message
        }

        /// The result of `pair`: `passed` or not, with the failure's `message`.
        public init(_ pair: FaultSweepPlan.Pair, passed: Bool, message: String?) {
            let verdict: Verdict = switch (passed, pair.isKnown) {
            case (true, false): .handled
            case (false, false): .failed
            case (false, true): .knownFailure
            case (true, true): .fixed
            }
            self.init(name: pair.name, index: pair.index, fault: pair.fault, verdict: verdict, message: passed ? nil : message)
        }

        /// How messages and reports print it.
        public var description: String {
            "\(verdict.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(name)" + (message.map { ": " + $0 } ?? "")
        }
    }

    /// The cassette file's path.
    public var cassette: String
    /// One result per pair, in plan order.
    public var results: [Result]
    /// The pairs that did not run.
    public var skipped: [FaultSweepPlan.Skipped]

    /// Creates a report.
    public init(cassette: String, results: [Result], skipped: [FaultSweepPlan.Skipped]) {
        self.cassette = cassette
        self.results = results
        self.skipped = skipped
    }

    /// Whether every pair was handled or failed as known (nothing ``Verdict/failed`` or ``Verdict/fixed``).
    public var succeeded: Bool { results.allSatisfy { $0.verdict == .handled || $0.verdict == .knownFailure } }

    /// The results with `verdict`.
    public func results(_ verdict: Verdict) -> [Result] { results.filter { $0.verdict == verdict } }

    /// A text report: a count line, one line per result, then the skipped pairs with their reasons.
    public var text: String {
        var lines = ["fault sweep of \(cassette): \(results.count) pair(s): \(results(.handled).count) handled, "
            + "\(results(.failed).count) failed, \(results(.knownFailure).count) known failure(s), \(results(.fixed).count) fixed; "
            + "\(skipped.count) skipped"]
        lines += results.map { "  " + $0.description }
        lines += skipped.map { "  skipped      \($0.name): \($0.reason)" }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON with sorted keys (byte for byte the same for the same results).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
