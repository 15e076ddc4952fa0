import Foundation

/// The bound on evaluating a user's regular expression against request data: a backtracking engine (ICU, under
/// `NSRegularExpression`) takes exponential time on patterns such as `^(a+)+$` against `aaaa…b`, and the text comes
/// from whoever sends the request.
///
/// One search may take at most ``steps`` backtracking steps, counted by the engine itself in units of 10,000 (so the
/// same pattern and text give the same answer on every machine, loaded or not); past that, and when the engine runs
/// out of its 8 MB backtracking stack, the search ends as ``Outcome/gaveUp(_:)`` with a sentence that names the
/// limit. Ordinary expressions stay far below it: a whole-body `.*value 5.*` over 570 kB of JSON takes about 410,000
/// steps. A search that gives up takes 0.16–0.2 s on a loaded 2-core machine (ICU runs the steps; the counting costs
/// a callback every 10,000).
///
/// ```swift
/// let expression = try NSRegularExpression(pattern: "^(a+)+$")
/// RegexStepLimit.search(expression, in: String(repeating: "a", count: 40) + "b")
/// // .gaveUp("gave up after 5000000 backtracking steps (the step limit of one match)")
/// ```
public enum RegexStepLimit {
    /// The most backtracking steps one search may take.
    public static let steps = 5_000_000

    /// How many steps the engine takes between two progress reports.
    static let stepsPerReport = 10_000

    /// How one search ended.
    public enum Outcome: Sendable, Hashable {
        /// The expression matched within the limit.
        case found
        /// The search ran to its end without a match.
        case notFound
        /// The search was stopped; the text says why (for near-miss reports and errors).
        case gaveUp(String)
    }

    /// Searches `text` for `expression` (anywhere: anchor the pattern for a whole-text match) within `steps`.
    public static func search(_ expression: NSRegularExpression, in text: String, steps: Int = steps) -> Outcome {
        let reports = max(1, steps / stepsPerReport)
        var progress = 0
        var outcome = Outcome.notFound
        expression.enumerateMatches(in: text, options: [.reportProgress, .reportCompletion],
                                    range: NSRange(text.startIndex..., in: text)) { result, flags, stop in
            if result != nil {
                outcome = .found
                stop.pointee = true
            } else if flags.contains(.progress) {
                progress += 1
                if progress >= reports {
                    outcome = .gaveUp("gave up after \(steps) backtracking steps (the step limit of one match)")
                    stop.pointee = true
                }
            } else if flags.contains(.completed), flags.contains(.internalError) {
                outcome = .gaveUp("ran out of backtracking stack (the engine's 8 MB limit)")
            }
        }
        return outcome
    }
}
