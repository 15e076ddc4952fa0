/// One way a candidate (a stub, a recorded request, a journaled request) differs from the request it was compared
/// with, and how much that weighs when ranking near misses.
///
/// Its description is the line reports print: `field: explanation`, e.g. `query page: recorded "1", request "2"`.
public struct NearMissDifference: Sendable, Hashable, CustomStringConvertible {
    /// What differs: `method`, `path`, `query q`, `header Accept`, `body`…
    public var field: String
    /// How it differs (empty when ``field`` says it all, e.g. `json body differs at a.b`).
    public var explanation: String
    /// How much the difference weighs when ranking near misses (``Weight``): the method and the place weigh most.
    public var weight: Int

    /// The weights of the usual fields, so every ranker weighs a difference alike.
    public enum Weight {
        /// Another host, path or URL: another resource.
        public static let place = 8
        /// Another method on the same resource.
        public static let method = 4
        /// A scenario in another state.
        public static let scenario = 3
        /// Another query parameter, header, cookie or body.
        public static let detail = 2
    }

    /// A difference in `field`, explained.
    public init(field: String, explanation: String, weight: Int) {
        self.field = field
        self.explanation = explanation
        self.weight = weight
    }

    /// A difference read from a report line: the field is what comes before the first `": "`, the explanation the
    /// rest (a line without one is all field), so ``description`` gives the line back.
    public init(line: String, weight: Int) {
        if let colon = line.range(of: ": ") {
            self.init(field: String(line[..<colon.lowerBound]), explanation: String(line[colon.upperBound...]), weight: weight)
        } else {
            self.init(field: line, explanation: "", weight: weight)
        }
    }

    /// How messages and reports print it.
    public var description: String { explanation.isEmpty ? field : "\(field): \(explanation)" }
}

/// A candidate that did not match a request, with every way it differs: the one ranking of near misses for stubs,
/// cassette interactions and journal verification. Pure logic.
///
/// ```swift
/// let nearest = NearMiss.nearest(stubs, toPath: request.path, path: { $0.matcher.path?.text },
///                                differences: { $0.matcher.differences(request) })
/// nearest.first?.differences   // [method: expected GET, got POST]
/// ```
package struct NearMiss<Candidate> {
    /// The candidate.
    package var candidate: Candidate
    /// How it differs, in the order its matcher found them.
    package var differences: [NearMissDifference]
    /// The sum of the differences' weights: lower is nearer.
    package let score: Int
    /// The edit distance between its path and the request's, which breaks ties of ``score``.
    package let pathDistance: Int

    /// The `limit` candidates nearest the request, nearest first: the lowest ``score``, then the most similar path
    /// text (``editDistance(_:_:)`` between `target` and the candidate's `path`; 0 when either is unknown), then the
    /// order given, so callers put the candidate they prefer on a tie first.
    package static func nearest(_ candidates: some Sequence<Candidate>, toPath target: String?, limit: Int = 3,
                                path: (Candidate) -> String?,
                                differences: (Candidate) -> [NearMissDifference]) -> [NearMiss] {
        let scored = candidates.map { candidate -> NearMiss in
            let found = differences(candidate)
            let distance = target.flatMap { target in path(candidate).map { editDistance($0, target) } } ?? 0
            return NearMiss(candidate: candidate, differences: found, score: found.reduce(0) { $0 + $1.weight },
                            pathDistance: distance)
        }
        // Scored once per candidate, not once per comparison. Positions are ranked by their keys, so the candidates
        // themselves (a stub is a large value) are not moved while sorting; the position breaks ties.
        let keys = scored.map { ($0.score, $0.pathDistance) }
        let ranked = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        return ranked.prefix(limit).map { scored[$0] }
    }

    /// Levenshtein distance between two short strings, capped at 64 bytes each so a long path costs little.
    package static func editDistance(_ a: String, _ b: String) -> Int {
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
