import TapedeckCore

/// Ranks stubs by how close they come to matching a request, and says how each differs. Pure logic.
struct NearMiss {
    let stub: Stub
    let differences: [RequestPattern.Difference]

    /// Sum of the differences' weights: the method and path weigh most.
    var score: Int { differences.reduce(0) { $0 + $1.weight } }

    /// The `limit` stubs nearest to `request`, nearest first: fewest weighted differences, then the most similar
    /// path text, then the most recently added.
    static func rank(_ request: RecordedRequest, stubs: [Stub], limit: Int = 3,
                     scenarioState: (String) -> String = { _ in ScenarioStep.started }) -> [NearMiss] {
        let scored = stubs.enumerated().map { offset, stub -> (miss: NearMiss, score: Int, distance: Int, offset: Int) in
            var differences = stub.matcher.differences(request)
            if let step = stub.scenario, let required = step.requiredState {
                let current = scenarioState(step.scenario)
                if current != required {
                    differences.append(.init(field: "scenario \(step.scenario)",
                                             explanation: "needs state \"\(required)\", is in \"\(current)\"", weight: 3))
                }
            }
            let distance = stub.matcher.path.map { editDistance($0.text, request.path) } ?? 0
            let miss = NearMiss(stub: stub, differences: differences)
            return (miss, miss.score, distance, offset)
        }
        // The score once per stub, not once per comparison: a 404 ranks every stub.
        let sorted = scored.sorted { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score < rhs.score }
            if lhs.distance != rhs.distance { return lhs.distance < rhs.distance }
            return lhs.offset > rhs.offset
        }
        return sorted.prefix(limit).map(\.miss)
    }

    /// The text of the 404 a request no stub matches gets.
    static func report(for request: RecordedRequest, stubs: [Stub], scenarioState: (String) -> String) -> String {
        var text = "No stub matches \(request.method) \(request.path)\(request.query.map { "?" + $0 } ?? "")\n"
        guard !stubs.isEmpty else { return text + "The server has no stubs.\n" }
        text += "\(stubs.count) stub\(stubs.count == 1 ? "" : "s") registered; the nearest:\n"
        for (index, miss) in rank(request, stubs: stubs, scenarioState: scenarioState).enumerated() {
            text += "\(index + 1). \(miss.stub.summary)\n"
            for difference in miss.differences { text += "   - \(difference)\n" }
            if miss.differences.isEmpty { text += "   - matches, but another request took its scenario transition first\n" }
        }
        return text
    }

    /// Levenshtein distance between two short strings, capped at 64 characters each so a long path costs little.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf8.prefix(64)), y = Array(b.utf8.prefix(64))
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var previous = Array(0...y.count)
        var current = previous
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
