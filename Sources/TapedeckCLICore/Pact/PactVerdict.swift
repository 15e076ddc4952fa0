import Foundation
import TapedeckCore

/// How an actual value fares against a Pact matcher or rule: it holds, it fails, or a regular expression gave up
/// within `RegexStepLimit` (which fails the match too, and says which expression and why, so that a contract's
/// catastrophic pattern is told apart from a value that does not match).
enum PactVerdict: Equatable, Sendable {
    case holds
    case fails
    /// `regex /^(a+)+$/ gave up after 5000000 backtracking steps (the step limit of one match)`
    case gaveUp(String)

    /// Whether `text` matches all of `pattern` (as Pact's verifiers read a `regex` matcher), within the step limit. A
    /// pattern ICU cannot read decides nothing, and says what is wrong with it.
    init(regex pattern: String, text: String) {
        guard let expression = try? NSRegularExpression(pattern: #"\A(?:"# + pattern + #")\z"#) else {
            self = .gaveUp("regex /\(pattern)/ cannot be read: \(RegexProblem.words(for: pattern))")
            return
        }
        switch RegexStepLimit.search(expression, in: text) {
        case .found: self = .holds
        case .notFound: self = .fails
        case .gaveUp(let reason): self = .gaveUp("regex /\(pattern)/ \(reason)")
        }
    }

    /// The verdicts of several matchers combined: with `all`, every one must hold (the first that does not decides);
    /// otherwise one must, and when none does, a give-up is said rather than a plain failure.
    init(_ verdicts: [PactVerdict], all: Bool) {
        if all {
            self = verdicts.first { $0 != .holds } ?? .holds
        } else if verdicts.contains(.holds) {
            self = .holds
        } else {
            self = verdicts.first { $0 != .fails } ?? .fails
        }
    }

    /// The mismatch line for `subject` (`header X-Id: 'abc'`), or `nil` when the value holds.
    func problem(_ subject: String) -> String? {
        switch self {
        case .holds: return nil
        case .fails: return "\(subject) does not match the rule"
        case .gaveUp(let reason): return "\(subject) was not decided: the rule's \(reason)"
        }
    }
}
