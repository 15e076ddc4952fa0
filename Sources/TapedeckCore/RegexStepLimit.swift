import Foundation

/// The bound on evaluating a regular expression from a file (a stub's matcher, a Pact rule, a JSON Schema
/// `pattern`, a redaction filter) against request or response text: a backtracking engine (ICU, under
/// `NSRegularExpression`) takes exponential time on patterns such as `^(a+)+$` against `aaaa…b`, and the text comes
/// from whoever sends it. Every such evaluation in Tapedeck goes through this type.
///
/// One search may take at most ``steps`` backtracking steps, counted by the engine itself in units of 10,000 (so the
/// same pattern and text give the same answer on every machine, loaded or not); past that, and when the engine runs
/// out of its 8 MB backtracking stack, the search ends as ``Outcome/gaveUp(_:)`` with a sentence that names the
/// limit. The engine also reports each start position it moves to (FoundationXML counts those with the steps), so
/// a search of a text of n UTF-16 units is allowed n reports more: an unanchored pattern that fails fast at every
/// position of a 10 MB body is not stopped, and a catastrophic one takes at most 10,000 steps per unit more than
/// ``steps``. Ordinary expressions stay far below it: a whole-body `.*value 5.*` over 570 kB of JSON takes about
/// 410,000 steps. A search of a short text that gives up takes 0.16–0.2 s on a loaded 2-core machine.
///
/// ```swift
/// let expression = try NSRegularExpression(pattern: "^(a+)+$")
/// RegexStepLimit.search(expression, in: String(repeating: "a", count: 40) + "b")
/// // .gaveUp("gave up after 5000000 backtracking steps (the step limit of one match)")
/// ```
public enum RegexStepLimit {
    /// The most backtracking steps one search may take (beside the start positions it moves through).
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

    /// How one replacement of every match ended.
    public enum Replacement: Sendable, Hashable {
        /// Every match replaced (the text unchanged when there was none).
        case replaced(String)
        /// The search was stopped; the text says why. Nothing was replaced.
        case gaveUp(String)
    }

    /// How many progress reports one search of `text` may make: one per 10,000 of ``steps``, and one per start
    /// position the engine may move to.
    static func reports(for text: String) -> Int {
        steps / stepsPerReport + text.utf16.count + 1
    }

    /// Searches `text` for `expression` (anywhere: anchor the pattern for a whole-text match) within the limit.
    public static func search(_ expression: NSRegularExpression, in text: String) -> Outcome {
        let (matches, gaveUp) = enumerate(expression, in: text, firstOnly: true)
        return gaveUp.map(Outcome.gaveUp) ?? (matches.isEmpty ? .notFound : .found)
    }

    /// `text` with every match of `expression` replaced by `template` (`$1` names a group, as
    /// `NSRegularExpression.stringByReplacingMatches` reads it), within the limit for the whole text.
    ///
    /// ```swift
    /// let digits = try NSRegularExpression(pattern: #"acct-\d+"#)
    /// RegexStepLimit.replacingMatches(of: digits, in: "id acct-42", with: "acct-0")  // .replaced("id acct-0")
    /// ```
    public static func replacingMatches(of expression: NSRegularExpression, in text: String, with template: String) -> Replacement {
        let (matches, gaveUp) = enumerate(expression, in: text, firstOnly: false)
        if let gaveUp { return .gaveUp(gaveUp) }
        guard !matches.isEmpty else { return .replaced(text) }
        let source = NSString(string: text)
        var result = ""
        var end = 0
        for match in matches {
            result += source.substring(with: NSRange(location: end, length: match.range.location - end))
            result += expression.replacementString(for: match, in: text, offset: 0, template: template)
            end = NSMaxRange(match.range)
        }
        return .replaced(result + source.substring(from: end))
    }

    /// Runs the engine over `text`: the matches (the first alone with `firstOnly`), and why it gave up, if it did.
    private static func enumerate(_ expression: NSRegularExpression, in text: String,
                                  firstOnly: Bool) -> (matches: [NSTextCheckingResult], gaveUp: String?) {
        let reports = reports(for: text)
        var progress = 0
        var matches: [NSTextCheckingResult] = []
        var gaveUp: String?
        expression.enumerateMatches(in: text, options: [.reportProgress, .reportCompletion],
                                    range: NSRange(text.startIndex..., in: text)) { result, flags, stop in
            if let result {
                matches.append(result)
                if firstOnly { stop.pointee = true }
            } else if flags.contains(.progress) {
                progress += 1
                if progress >= reports {
                    gaveUp = "gave up after \(steps) backtracking steps (the step limit of one match)"
                    stop.pointee = true
                }
            } else if flags.contains(.completed), flags.contains(.internalError) {
                gaveUp = "ran out of backtracking stack (the engine's 8 MB limit)"
            }
        }
        return (matches, gaveUp)
    }
}
