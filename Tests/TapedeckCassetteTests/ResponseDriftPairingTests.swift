import Testing
import TapedeckCore
@testable import TapedeckCassette

/// `ResponseDrift.pairs`: which earlier recording each re-recorded request is compared with for drift.
@Suite struct ResponseDriftPairingTests {
    private func request(_ method: String, _ url: String) -> Interaction.Request {
        Interaction.Request(method: method, url: url)
    }

    /// The rule spelled out with keys alone: the k-th recording of a request key with its k-th earlier recording.
    private func pairedByKey(_ recorded: [Interaction.Request], _ earlier: [Interaction.Request]) -> [[Int]] {
        var positions: [String: [Int]] = [:]
        for (index, request) in earlier.enumerated() { positions[RequestPlace.key(request), default: []].append(index) }
        var seen: [String: Int] = [:]
        return recorded.enumerated().compactMap { index, request in
            let key = RequestPlace.key(request)
            defer { seen[key, default: 0] += 1 }
            guard let found = positions[key], seen[key, default: 0] < found.count else { return nil }
            return [found[seen[key, default: 0]], index]
        }
    }

    @Test func theSameRunAgainIsPairedIndexToIndex() {
        let run = [request("GET", "http://h/a"), request("POST", "http://h/a"), request("GET", "http://h/a")]
        #expect(ResponseDrift.pairs(recorded: run, earlier: run).map { [$0.earlier, $0.recorded] } == [[0, 0], [1, 1], [2, 2]])
    }

    @Test func aRunThatDepartsIsPairedByKeyAsIfNoneWereInStep() {
        var generator = SplitMix64(seed: 7)
        let urls = ["http://h/a", "http://h/b", "http://other:81/a", "http://h/a?x=1"]
        let methods = ["GET", "get", "POST"]
        for _ in 0..<300 {
            func run() -> [Interaction.Request] {
                (0..<Int(generator.next() % 8)).map { _ in
                    request(methods[Int(generator.next() % 3)], urls[Int(generator.next() % 4)])
                }
            }
            let earlier = run()
            // Often a prefix of the earlier run, then whatever comes.
            let recorded = Array(earlier.prefix(Int(generator.next() % 6))) + run()
            let pairs = ResponseDrift.pairs(recorded: recorded, earlier: earlier).map { [$0.earlier, $0.recorded] }
            #expect(pairs == pairedByKey(recorded, earlier), "\(recorded.map(\.url)) over \(earlier.map(\.url))")
        }
    }
}
