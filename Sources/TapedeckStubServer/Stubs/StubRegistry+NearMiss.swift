import TapedeckCore

extension StubRegistry {
    /// The `limit` stubs nearest to `request`, nearest first (`NearMiss.nearest`): a scenario in another state than
    /// the stub needs counts as a difference; on a tie, the most recently added stub comes first.
    static func nearest(_ request: RecordedRequest, stubs: [Stub], limit: Int = 3,
                        scenarioState: (String) -> String = { _ in ScenarioStep.started }) -> [NearMiss<Stub>] {
        NearMiss.nearest(stubs.reversed(), toPath: request.path, limit: limit, path: { $0.matcher.path?.text }) { stub in
            var differences = stub.matcher.differences(request)
            if let step = stub.scenario, let required = step.requiredState {
                let current = scenarioState(step.scenario)
                if current != required {
                    differences.append(.init(field: "scenario \(step.scenario)", explanation: "needs state \"\(required)\", is in \"\(current)\"",
                                             weight: NearMissDifference.Weight.scenario))
                }
            }
            return differences
        }
    }

    /// The text of the 404 a request no stub matches gets.
    static func notFoundReport(for request: RecordedRequest, stubs: [Stub], scenarioState: (String) -> String) -> String {
        var text = "No stub matches \(request.method) \(request.path)\(request.query.map { "?" + $0 } ?? "")\n"
        guard !stubs.isEmpty else { return text + "The server has no stubs.\n" }
        text += "\(stubs.count) stub\(stubs.count == 1 ? "" : "s") registered; the nearest:\n"
        for (index, miss) in nearest(request, stubs: stubs, scenarioState: scenarioState).enumerated() {
            text += "\(index + 1). \(miss.candidate.summary)\n"
            for difference in miss.differences { text += "   - \(difference)\n" }
            if miss.differences.isEmpty { text += "   - matches, but another request took its scenario transition first\n" }
        }
        return text
    }
}
