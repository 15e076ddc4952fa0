import TapedeckCore

/// A failed ``StubServer/verify(_:count:)``: what was expected, what arrived, and the nearest requests that did not
/// match with how each differs. Its `description` is the readable report.
public struct VerificationError: Error, CustomStringConvertible, Sendable {
    /// The matcher verified.
    public var matcher: RequestPattern
    /// The expected count.
    public var expected: CountExpectation
    /// The requests that matched.
    public var matching: [RecordedRequest]
    /// The report.
    public let description: String
}

/// Checking the journal against expectations. Pure logic over recorded requests.
enum Verifier {
    /// `nil` when `requests` holds the expected number matching `matcher`, the error otherwise.
    static func verify(_ matcher: RequestPattern, count expected: CountExpectation, in requests: [RecordedRequest],
                       droppedCount: Int = 0) -> VerificationError? {
        let matching = requests.filter(matcher.matches)
        guard !expected.accepts(matching.count) else { return nil }
        var text = "Expected \(expected) matching \(matcher), but received \(matching.count).\n"
        if !matching.isEmpty {
            text += "Matching:\n" + matching.prefix(10).map { "  #\($0.sequenceNumber) \(line($0))\n" }.joined()
            if matching.count > 10 { text += "  … and \(matching.count - 10) more\n" }
        }
        let others = requests.filter { !matcher.matches($0) }
        if others.isEmpty {
            text += requests.isEmpty ? "The journal is empty.\n" : ""
        } else {
            // The latest request first on a tie.
            let ranked = NearMiss.nearest(others.reversed(), toPath: matcher.path?.text, path: { $0.path },
                                          differences: { matcher.differences($0) })
            text += "Nearest other requests (of \(others.count)):\n"
            for miss in ranked {
                text += "  #\(miss.candidate.sequenceNumber) \(line(miss.candidate))\n"
                for difference in miss.differences { text += "     - \(difference)\n" }
            }
        }
        if droppedCount > 0 { text += "Note: \(droppedCount) older requests were dropped from the full journal.\n" }
        return VerificationError(matcher: matcher, expected: expected, matching: matching, description: text)
    }

    static func line(_ request: RecordedRequest) -> String {
        "\(request.method) \(request.path)\(request.query.map { "?" + $0 } ?? "")"
    }
}

extension RequestJournal {
    /// The kept requests that `matcher` matches, oldest first.
    public func requests(matching matcher: RequestPattern) -> [RecordedRequest] {
        entries.filter(matcher.matches)
    }

    /// The kept requests no stub matched (they were answered with a 404).
    public var unmatched: [RecordedRequest] { entries.filter { $0.matchedStubID == nil } }

    /// Throws a ``VerificationError`` with a readable report unless the journal holds the expected number of
    /// requests matching `matcher`.
    ///
    /// ```swift
    /// try server.journal.verify(RequestPattern(.post, "/orders").header("Idempotency-Key", .present), count: .once)
    /// ```
    public func verify(_ matcher: RequestPattern, count: CountExpectation = .atLeast(1)) throws(VerificationError) {
        if let error = Verifier.verify(matcher, count: count, in: entries, droppedCount: droppedCount) { throw error }
    }
}
