import Foundation
import TapedeckCLICore
import TapedeckCassette
import Testing

@Suite struct FaultSweepRunTests {
    private let pair = FaultSweepPlan.Pair(index: 2, interaction: "GET /v1/me", fault: .resetMidBody,
                                           answer: .failure(.init(code: -1005, message: "x")), isKnown: false)

    @Test func theCommandIsToldTheServerAndThePair() {
        let variables = FaultSweepRun.environment(for: pair, serverURL: URL(string: "http://127.0.0.1:8080/")!)
        #expect(variables == [
            "TAPEDECK_SWEEP_URL": "http://127.0.0.1:8080", "TAPEDECK_SWEEP_CASE": "GET /v1/me · reset mid-body",
            "TAPEDECK_SWEEP_FAULT": "resetMidBody", "TAPEDECK_SWEEP_INTERACTION": "2",
        ])
    }

    @Test func anExitStatusBecomesAVerdict() {
        #expect(FaultSweepRun.result(for: pair, status: 0).verdict == .handled)
        #expect(FaultSweepRun.result(for: pair, status: 3).message == "exit status 3")
        #expect(FaultSweepRun.result(for: pair, status: -1, signal: 11).message == "killed by signal 11")
        var known = pair
        known.isKnown = true
        #expect(FaultSweepRun.result(for: known, status: 0).verdict == .fixed)
    }

    @Test func aFixedKnownFailureFailsInJUnit() {
        let report = FaultSweepReport(
            cassette: "/c/api.json",
            results: [.init(name: "GET /a · timeout", index: 0, fault: .timeout, verdict: .fixed),
                      .init(name: "GET /a · 500", index: 0, fault: .serverError, verdict: .knownFailure)],
            skipped: [])
        let cases = FaultSweepRun.junit(report).cases
        #expect(cases.map(\.name) == ["GET /a · timeout", "GET /a · 500 (known failure)"])
        #expect(cases[0].failure?.contains("remove it from --known") == true)
        #expect(cases[1].failure == nil)
    }
}
