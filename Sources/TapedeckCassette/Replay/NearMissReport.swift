/// Why a request found no recorded interaction: the cassette, the request, the rules, and the nearest recorded
/// requests with what differs in each. The description is the message users see.
public struct NearMissReport: Sendable, CustomStringConvertible {
    /// A recorded request close to the live one.
    public struct Candidate: Sendable, Hashable {
        /// Its position in the cassette.
        public var index: Int
        /// `METHOD URL`.
        public var request: String
        /// One line per differing field, e.g. `query page: recorded "1", request "2"`.
        public var differences: [String]
    }

    /// The cassette file (or name).
    public var cassette: String
    /// The live request, `METHOD URL` (after redaction).
    public var request: String
    /// The rules used, e.g. `["method", "url"]`.
    public var rules: [String]
    /// The nearest recorded requests, nearest first.
    public var candidates: [Candidate]
    /// Interactions that match the request but were all played already.
    public var exhausted: [Int]

    /// How messages and reports print it.
    public var description: String {
        var lines = ["cassette \(cassette) has no unplayed interaction for \(request) (matching on \(rules.joined(separator: ", ")))."]
        if !exhausted.isEmpty {
            lines.append("It matches interaction(s) \(exhausted.map { "#\($0)" }.joined(separator: ", ")), already played; "
                + "record one more with TAPEDECK_RECORD_MODE=newEpisodes, or set allowPlaybackRepeats to replay the last one again.")
        }
        if candidates.isEmpty {
            lines.append(exhausted.isEmpty ? "The cassette has no recorded interactions." : "")
        } else if exhausted.isEmpty {
            lines.append("Nearest recorded requests:")
            for (rank, candidate) in candidates.enumerated() {
                lines.append("  \(rank + 1). #\(candidate.index) \(candidate.request)")
                for difference in candidate.differences { lines.append("       - \(difference)") }
            }
        }
        if exhausted.isEmpty {
            lines.append("To record it, run the test with TAPEDECK_RECORD_MODE=newEpisodes (records requests the cassette "
                + "lacks and replays the rest), or change the matching rules.")
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
