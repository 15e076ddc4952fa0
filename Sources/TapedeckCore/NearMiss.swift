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

    /// The `limit` candidates nearest the request, nearest first: the lowest ``score``, then the most similar path
    /// text (``editDistance(_:_:)`` between `target` and the candidate's `path`; 0 when either is unknown), then the
    /// order given, so callers put the candidate they prefer on a tie first.
    ///
    /// Every unmatched request ranks every stub, so this does no more than the ranking needs: each candidate's
    /// differences are found once, the candidates (a stub is a large value) are not moved, and a path's edit
    /// distance is computed only to order candidates of equal score that make the cut.
    package static func nearest(_ candidates: some Sequence<Candidate>, toPath target: String?, limit: Int = 3,
                                path: (Candidate) -> String?,
                                differences: (Candidate) -> [NearMissDifference]) -> [NearMiss] {
        let scored = candidates.map { candidate -> NearMiss in
            let found = differences(candidate)
            return NearMiss(candidate: candidate, differences: found, score: found.reduce(0) { $0 + $1.weight })
        }
        var chosen: [Int] = []
        var taken = [Bool](repeating: false, count: scored.count)
        // Score by score, nearest first: the positions of that score in the order given, sorted by path when tied.
        while chosen.count < limit {
            var nearest: Int?
            for position in scored.indices where !taken[position] { nearest = Swift.min(nearest ?? .max, scored[position].score) }
            guard let best = nearest else { break }
            var tied: [Int] = []
            for position in scored.indices where !taken[position] && scored[position].score == best {
                tied.append(position)
                taken[position] = true
            }
            if tied.count > 1, let target {
                let distances = tied.map { path(scored[$0].candidate).map { editDistance($0, target) } ?? 0 }
                tied = tied.indices.sorted { distances[$0] != distances[$1] ? distances[$0] < distances[$1] : $0 < $1 }.map { tied[$0] }
            }
            chosen += tied.prefix(limit - chosen.count)
        }
        return chosen.map { scored[$0] }
    }

    /// Levenshtein distance between two short strings, capped at 64 bytes each so a long path costs little. What
    /// the two share at the start and at the end costs nothing (paths that differ in one segment are the usual case).
    /// It runs for many stubs on every unmatched request, so it works on buffers, not arrays.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let x = ContiguousArray(a.utf8.prefix(64)), y = ContiguousArray(b.utf8.prefix(64))
        return x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                var start = 0, xEnd = x.count, yEnd = y.count
                while start < xEnd, start < yEnd, x[start] == y[start] { start += 1 }
                while xEnd > start, yEnd > start, x[xEnd - 1] == y[yEnd - 1] { xEnd -= 1; yEnd -= 1 }
                let rows = xEnd - start, columns = yEnd - start
                if rows == 0 || columns == 0 { return max(rows, columns) }
                return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (columns + 1)) { cells in
                    var previous = cells.baseAddress!, current = previous + (columns + 1)
                    for j in 0...columns { previous[j] = j }
                    for i in 1...rows {
                        current[0] = i
                        let byte = x[start + i - 1]
                        for j in 1...columns {
                            let substitution = previous[j - 1] + (byte == y[start + j - 1] ? 0 : 1)
                            current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
                        }
                        swap(&previous, &current)
                    }
                    return previous[columns]
                }
            }
        }
    }
}
