import Testing
import TapedeckCore

@Suite struct NearMissRankingTests {
    private typealias Weight = NearMissDifference.Weight
    private struct Candidate: Equatable {
        var name: String
        var path: String?
        var weights: [Int]
    }

    private func rank(_ candidates: [Candidate], toPath target: String? = "/users", limit: Int = 3) -> [String] {
        NearMiss.nearest(candidates, toPath: target, limit: limit, path: \.path) { candidate in
            candidate.weights.map { NearMissDifference(field: "f", explanation: "e", weight: $0) }
        }.map(\.candidate.name)
    }

    @Test func theLowestWeightComesFirstThenTheNearestPathThenTheOrderGiven() {
        let candidates = [
            Candidate(name: "far", path: "/orders", weights: [Weight.method, Weight.place]),
            Candidate(name: "header", path: "/users", weights: [Weight.detail]),
            Candidate(name: "typo", path: "/usrs", weights: [Weight.detail]),
            Candidate(name: "same", path: "/users", weights: [Weight.detail]),
            Candidate(name: "method", path: "/users", weights: [Weight.method]),
        ]
        #expect(rank(candidates, limit: 10) == ["header", "same", "typo", "method", "far"])
        #expect(rank(candidates) == ["header", "same", "typo"])
        #expect(rank(candidates, toPath: nil, limit: 10) == ["header", "typo", "same", "method", "far"], "no path: the order given")
        #expect(rank([]) == [])
    }

    @Test func scoresAreTheSumOfTheWeights() {
        let nearest = NearMiss.nearest([1], toPath: nil, path: { _ in nil }) { _ in
            [NearMissDifference(field: "method", explanation: "expected GET, got POST", weight: Weight.method),
             NearMissDifference(field: "query q", explanation: "absent", weight: Weight.detail)]
        }
        #expect(nearest.first?.score == 6)
        #expect(nearest.first?.differences.map(\.description) == ["method: expected GET, got POST", "query q: absent"])
    }

    @Test func aReportLineGivesItselfBack() {
        for line in ["json body differs at b.c.0", #"query page: recorded "1", request "2""#, "graphql batch member 0: operation: x"] {
            #expect(NearMissDifference(line: line, weight: 1).description == line)
        }
        #expect(NearMissDifference(line: "header a: x", weight: 1).field == "header a")
    }

    @Test func editDistance() {
        #expect(NearMiss<Int>.editDistance("/users", "/user") == 1)
        #expect(NearMiss<Int>.editDistance("", "/abc") == 4)
        #expect(NearMiss<Int>.editDistance("kitten", "sitting") == 3)
        #expect(NearMiss<Int>.editDistance(String(repeating: "a", count: 200), String(repeating: "b", count: 200)) == 64,
                "capped at 64 bytes")
    }
}
