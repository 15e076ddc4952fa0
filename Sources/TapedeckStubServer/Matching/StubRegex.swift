import Foundation
import TapedeckCore

/// A regular expression (ICU syntax, as `NSRegularExpression`) that must match a whole value, compiled once.
///
/// Request data is matched within `RegexStepLimit` (TapedeckCore): a pattern that backtracks catastrophically on a request's text
/// (`^(a+)+$` against `aaaa…b`) stops after `RegexStepLimit.steps` steps and counts as not matching, and the
/// stub's near-miss report says that the expression gave up.
///
/// ```swift
/// let digits: StubRegex = "[0-9]+"            // a literal that does not compile stops the test with its error
/// let parsed = try StubRegex(userSuppliedText) // throws StubRegex.Error
/// ```
/// Note that `StubRegex("…")` with a literal argument is the literal initializer (Swift reads it as a literal), so
/// it traps rather than throws; pass text from elsewhere to get the thrown error.
public struct StubRegex: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Why a pattern is not a regular expression.
    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        /// The pattern as given.
        public var pattern: String
        /// What is wrong with it, e.g. `expected ')' at offset 3`.
        public var reason: String
        /// How messages and reports print it.
        public var description: String { "invalid regular expression \"\(pattern)\": \(reason)" }
    }

    /// `NSRegularExpression` is immutable and documented as safe to use from any thread.
    private final class Compiled: @unchecked Sendable {
        let expression: NSRegularExpression
        init(_ expression: NSRegularExpression) { self.expression = expression }
    }

    /// The pattern text.
    public let pattern: String
    private let compiled: Compiled

    /// Compiles `pattern`.
    public init(_ pattern: String) throws(Error) {
        do {
            _ = try NSRegularExpression(pattern: pattern)
            compiled = Compiled(try NSRegularExpression(pattern: "^(?:" + pattern + ")$"))
        } catch {
            throw Error(pattern: pattern, reason: RegexProblem.words(for: pattern))
        }
        self.pattern = pattern
    }

    /// Compiles a literal pattern; a literal that is not a valid expression is a programming error and traps with
    /// the reason.
    public init(stringLiteral value: String) {
        do {
            try self.init(value)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// Whether the expression matches all of `text` within the step limit (a search that gives up is no match).
    public func matchesWhole(_ text: String) -> Bool {
        evaluate(text) == .found
    }

    /// How matching all of `text` ends, within `RegexStepLimit.steps`.
    public func evaluate(_ text: String) -> RegexStepLimit.Outcome {
        RegexStepLimit.search(compiled.expression, in: text)
    }

    /// For near-miss reports: `" (/pattern/ gave up after …)"` when matching any of `texts` gave up, else empty.
    func limitNote(_ texts: [String]) -> String {
        for text in texts {
            if case .gaveUp(let reason) = evaluate(text) { return " (\(self) \(reason))" }
        }
        return ""
    }

    /// How messages and reports print it.
    public var description: String { "/\(pattern)/" }

    /// Whether two expressions have the same pattern text.
    public static func == (lhs: StubRegex, rhs: StubRegex) -> Bool { lhs.pattern == rhs.pattern }
    /// Hashes the pattern text, which `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
}
