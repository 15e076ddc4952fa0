import Foundation
import TapedeckCassette
import TapedeckCore
import Testing

/// Runs a test once per (interaction, fault) pair of a recorded cassette: that interaction is replaced by the fault
/// (a timeout, a reset in the middle of the body, a `503` with `Retry-After`, … see `InteractionFault`) and every
/// other one replays as recorded. A pair is handled when the test passes under it. A recorded WebSocket conversation
/// gets the WebSocket faults too (a drop, a close with 1011, 1001 or 1013, a stall): the body meets them through
/// `WebSocket.connect(to:through:)` over the case's transport, a `CassetteTransport`.
///
/// In Swift Testing each pair is a test case of a parameterized test, named after it (`GET /v1/me · reset mid-body`),
/// so a failure says which interaction and which fault; the case runs its body with `Case.run(sourceLocation:_:)`:
///
/// ```swift
/// @Test(arguments: try FaultSweep(cassette: "Profile/loadsTheProfile", faults: [.timeout, .serviceUnavailable],
///                                 known: ["GET /v1/avatar · timeout"]).cases)
/// func theProfileScreenSurvives(_ fault: FaultSweep.Case) async throws {
///     try await fault.run { transport in
///         let screen = ProfileScreen(api: HTTPSessionManager(baseURL: apiURL, transport: transport))
///         await screen.load()
///         #expect(screen.state != .crashed)
///     }
/// }
/// ```
///
/// With XCTest, `sweepFaults(_:_:)` runs every pair and fails the test once per pair not handled; anywhere else,
/// ``run(_:)`` returns the `FaultSweepReport`. Pairs whose fault does not apply are in ``skipped``, not run.
public struct FaultSweep: Sendable {
    /// The pairs and the skipped ones.
    public var plan: FaultSweepPlan
    /// Matching and the rest of the replay's configuration (its `faults` and `conversationFaults` are replaced by
    /// each pair's).
    public var configuration: CassetteConfiguration
    /// Makes each case's clock, the one the code under test waits on (``Case/clock``): a `503`'s `Retry-After` is
    /// measured on it (see `FaultSweepPlan.Pair.replayFault(clock:)`), so a client given an `InstantWallClock`
    /// retries without really waiting. Each case has its own, so cases running in parallel never move each other's
    /// time.
    public var makeClock: @Sendable () -> any WallClock

    /// A sweep of the cassette at `cassette`.
    ///
    /// - Parameters:
    ///   - cassette: the cassette file whose recording is swept.
    ///   - faults: the faults to try, every `InteractionFault` by default.
    ///   - interactions: which interactions to fault (all when empty), e.g. `["GET /v1/*"]`.
    ///   - known: pairs expected to fail, e.g. `["GET /v1/me · 503 with Retry-After"]`.
    ///   - configuration: matching, redaction and the rest, for every case's cassette.
    ///   - clock: the clock the code under test waits on, made anew for each case (`InstantWallClock()` to make
    ///     waiting instant).
    /// - Throws: `FaultSweepError` when the cassette cannot be read or a known failure names no fault.
    public init(cassette: URL, faults: [InteractionFault] = InteractionFault.allCases, interactions: [InteractionPattern] = [],
                known: [String] = [], configuration: CassetteConfiguration = CassetteConfiguration(),
                clock: @autoclosure @escaping @Sendable () -> any WallClock = SystemWallClock()) throws(FaultSweepError) {
        var knownFailures: [KnownFailure] = []
        for text in known { knownFailures.append(try KnownFailure(text)) }
        plan = try FaultSweepPlan(cassette: cassette, faults: faults, interactions: interactions, known: knownFailures)
        self.configuration = configuration
        makeClock = clock
    }

    /// A sweep of the cassette `name` (a path without `.json`) under the `Cassettes/` folder of the package that
    /// holds `sourceFile` (or under `TAPEDECK_CASSETTE_ROOT`), where the cassette traits keep theirs: a recording made
    /// by `@Test(.cassette())` in suite `ProfileTests` of target `AppTests` is `"AppTests/ProfileTests/loadsTheProfile"`.
    public init(cassette name: String, faults: [InteractionFault] = InteractionFault.allCases,
                interactions: [InteractionPattern] = [], known: [String] = [],
                configuration: CassetteConfiguration = CassetteConfiguration(),
                clock: @autoclosure @escaping @Sendable () -> any WallClock = SystemWallClock(),
                sourceFile: String = #filePath) throws(FaultSweepError) {
        let url = CassetteLocation.url(name: name, suitePath: [], testName: name, arguments: [], sourceFile: sourceFile, root: nil)
        try self.init(cassette: url, faults: faults, interactions: interactions, known: known, configuration: configuration,
                      clock: clock())
    }

    /// One case per pair, in plan order: the arguments of a parameterized Swift Testing test.
    public var cases: [Case] { plan.pairs.map { Case(pair: $0, sweep: self, clock: makeClock()) } }

    /// The pairs whose fault does not apply, with the reason (listed, never run).
    public var skipped: [FaultSweepPlan.Skipped] { plan.skipped }

    /// Runs `body` once per pair, one after another, with the case (its ``Case/clock`` is the one to wait on) and
    /// the faulted replay, and reports which pairs it handled: a pair fails when the body throws or the cassette
    /// reports a failure (a request it could not match).
    public func run(_ body: @Sendable (Case, any HTTPTransport) async throws -> Void) async -> FaultSweepReport {
        var results: [FaultSweepReport.Result] = []
        for sweepCase in cases {
            let outcome = await sweepCase.outcome { transport in try await body(sweepCase, transport) }
            results.append(FaultSweepReport.Result(sweepCase.pair, passed: outcome.passed, message: outcome.message))
        }
        return FaultSweepReport(cassette: plan.cassette.path, results: results, skipped: plan.skipped)
    }

    /// One pair of a sweep, as a test case argument.
    public struct Case: Sendable, CustomStringConvertible, CustomTestStringConvertible {
        /// The interaction and the fault.
        public let pair: FaultSweepPlan.Pair
        let sweep: FaultSweep
        /// The clock the code under test should wait on: this case's own, made by the sweep's `clock`.
        public let clock: any WallClock
        /// `GET /v1/me · reset mid-body`.
        public var description: String { pair.name }
        /// `GET /v1/me · reset mid-body`, the test case's name.
        public var testDescription: String { pair.name }

        /// The cassette scope that replays the cassette with this pair's fault; recording is off whatever
        /// `TAPEDECK_RECORD_MODE` says.
        func scope() -> CassetteScope {
            let configuration = pair.configuration(sweep.configuration, clock: clock)
            var environment = ProcessInfo.processInfo.environment
            environment[RecordMode.environmentVariable] = nil
            return CassetteScope(cassette: sweep.plan.cassette, mode: .replay, configuration: configuration,
                                 upstream: MissingTestTransport(), environment: environment)
        }

        /// Runs `body` under this pair in a Swift Testing test: the faulted replay is `transport` and
        /// ``TapedeckTest/transport``; what the cassette reports (an unmatched request) is an issue; a known pair
        /// runs as a known issue, so its failure is expected and its passing is reported.
        public func run(sourceLocation: SourceLocation = #_sourceLocation,
                        _ body: @Sendable (any HTTPTransport) async throws -> Void) async throws {
            let scope = scope()
            func attempt() async throws {
                for failure in try await scope.run(body) {
                    Issue.record(Comment(rawValue: failure.description), severity: failure.isWarning ? .warning : .error,
                                 sourceLocation: sourceLocation)
                }
            }
            if pair.isKnown {
                await withKnownIssue("\(pair.name) is a known failure", sourceLocation: sourceLocation) { try await attempt() }
            } else {
                try await attempt()
            }
        }

        /// Runs `body` under this pair and says whether it passed, with the first failure's message.
        public func outcome(_ body: @Sendable (any HTTPTransport) async throws -> Void) async -> (passed: Bool, message: String?) {
            do {
                let failures = try await scope().run(body).filter { !$0.isWarning }
                return (failures.isEmpty, failures.first?.description)
            } catch {
                return (false, "\(error)")
            }
        }
    }
}
