import Foundation
import TapedeckCassette

/// Times matching where it happens, on `CassettePlayer`, for the match-rule cost benchmarks (`tapedeck-bench-graphql`,
/// `tapedeck-bench-jsonrpc`).
public enum PlayerTiming {
    /// Seconds per replayed request: `rounds` fresh players of `cassette` (as each test opens its own), or one player
    /// rewound each round (as `serve` keeps one for every session), each replay `requests` in order, and each request
    /// must get the interaction at its own position (player creation is not timed). Exits on a wrong answer.
    public static func secondsPerRequest(_ cassette: Cassette, rules: [MatchRule], requests: [Interaction.Request], rounds: Int,
                                         onePlayer: Bool = false) -> Double {
        var total = Duration.zero
        var kept = CassettePlayer(cassette: cassette, matching: rules)
        for _ in 0..<rounds {
            kept.rewind()
            var player = onePlayer ? kept : CassettePlayer(cassette: cassette, matching: rules)
            defer { if onePlayer { kept = player } }
            let start = ContinuousClock.now
            for (index, request) in requests.enumerated() {
                guard case .success(let playback) = player.play(request), playback.index == index else {
                    FileHandle.standardError.write(Data("request \(index) did not replay its own interaction\n".utf8))
                    exit(1)
                }
            }
            total += start.duration(to: .now)
        }
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        return seconds / Double(rounds * requests.count)
    }

    /// The two positive counts `PAIRS ROUNDS` of the command line; exits with `usage` when they are not there.
    public static func pairsAndRounds(usage: String) -> (pairs: Int, rounds: Int) {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let pairs = Int(arguments[1]), let rounds = Int(arguments[2]), pairs >= 1, rounds >= 1 else {
            FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
            exit(2)
        }
        return (pairs, rounds)
    }

    /// `median M (min A, max B, N pairs)` of `values`.
    public static func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return String(format: "median %.3f (min %.3f, max %.3f, %d pairs)", median, sorted.first!, sorted.last!, sorted.count)
    }

    /// `pairs` interleaved pairs (AB, then BA, …) of `rules` A against B on `requests`, after one warm-up of each;
    /// prints each pair as `label pair N: …` and the added µs and ratio of B over A.
    public static func comparePairs(_ label: String, _ cassette: Cassette, a: (name: String, rules: [MatchRule]),
                                    b: (name: String, rules: [MatchRule]), requests: [Interaction.Request], pairs: Int, rounds: Int,
                                    onePlayer: Bool = false) {
        let time = { (rules: [MatchRule]) in secondsPerRequest(cassette, rules: rules, requests: requests, rounds: rounds, onePlayer: onePlayer) }
        _ = time(a.rules)
        _ = time(b.rules)
        var added: [Double] = [], ratios: [Double] = []
        for pair in 1...pairs {
            let x: Double, y: Double
            if pair % 2 == 1 {
                x = time(a.rules)
                y = time(b.rules)
            } else {
                y = time(b.rules)
                x = time(a.rules)
            }
            added.append((y - x) * 1e6)
            ratios.append(y / x)
            print(String(format: "%@ pair %d: %@ %.3f µs, %@ %.3f µs, added %.3f µs", label, pair, a.name, x * 1e6, b.name, y * 1e6, (y - x) * 1e6))
        }
        print("\(label): added µs per request \(summary(added)); ratio \(summary(ratios))")
    }
}
