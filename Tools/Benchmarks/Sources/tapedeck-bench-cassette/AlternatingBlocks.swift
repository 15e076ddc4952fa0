/// Two sides of a comparison run over the same requests in alternating blocks, A B A B …, within one process: the
/// first round warms both sides and is not counted.
enum AlternatingBlocks {
    /// Microseconds per request of each counted block of each side. `measured` and `baseline` each send the requests
    /// of a range of indexes below `count`.
    static func run(
        count: Int, block: Int, rounds: Int,
        measured: (Range<Int>) async throws -> Void,
        baseline: (Range<Int>) async throws -> Void
    ) async throws -> (measured: [Double], baseline: [Double]) {
        var result: (measured: [Double], baseline: [Double]) = ([], [])
        for round in 0...rounds {
            for start in stride(from: 0, to: count, by: block) {
                let range = start..<min(count, start + block)
                let first = ContinuousClock.now
                try await measured(range)
                let second = ContinuousClock.now
                try await baseline(range)
                let end = ContinuousClock.now
                guard round > 0 else { continue }
                result.measured.append(ClientReplay.microseconds(second - first) / Double(range.count))
                result.baseline.append(ClientReplay.microseconds(end - second) / Double(range.count))
            }
        }
        return result
    }
}
