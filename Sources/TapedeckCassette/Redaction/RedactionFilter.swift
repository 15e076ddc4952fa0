import Foundation
import TapedeckCore

/// A custom rule that removes secrets before an interaction is written, in addition to the defaults of
/// ``Redaction``. Request-side filters are also applied to live requests before matching, so placeholders still
/// match on replay.
///
/// ```swift
/// configuration.redaction.filters = [
///     .header("X-Session"),
///     .queryParameter("sid"),
///     .jsonPath("user.ssn"),
///     .regex(#"acct-\d+"#, replacement: "acct-0000"),
/// ]
/// ```
public struct RedactionFilter: Sendable {
    enum Kind: Sendable {
        case header(String, String)
        case queryParameter(String, String)
        case jsonPath(JSONPath, String)
        case regex(RegexBox, String)
        case request(@Sendable (inout Interaction.Request) -> Void)
        case interaction(@Sendable (inout Interaction) -> Void)
    }

    let kind: Kind

    /// Replaces every value of header `name` (request and response), case-insensitive.
    public static func header(_ name: String, replacement: String = Redaction.placeholder) -> RedactionFilter {
        RedactionFilter(kind: .header(name, replacement))
    }

    /// Replaces the value of query parameter (and form field) `name`.
    public static func queryParameter(_ name: String, replacement: String = Redaction.placeholder) -> RedactionFilter {
        RedactionFilter(kind: .queryParameter(name, replacement))
    }

    /// Replaces the JSON body member at `path`, request and response: a `JSONPath` (`$.user.password`,
    /// `$.items[*].token`) or its dotted shorthand (`user.password`, `items.*.token`), matched against the places a
    /// walk names as `JSONPath.matches(dottedLocation:)` describes. A path given as text is parsed with
    /// `try JSONPath(text)`. A path that counts an array from its end (`[-1]`) stops the program: a body is redacted
    /// as it streams, before an array's length is known, so such a path would let its secret through.
    public static func jsonPath(_ path: JSONPath, replacement: String = Redaction.placeholder) -> RedactionFilter {
        precondition(!path.countsFromTheEnd, "a redaction path cannot count an array from its end: \(path)")
        return RedactionFilter(kind: .jsonPath(path, replacement))
    }

    /// Replaces every match of an `NSRegularExpression` pattern in URLs, header values and text bodies;
    /// `replacement` may use `$1` templates. The search runs within `RegexStepLimit`: where it gives up, the whole
    /// value becomes ``Redaction/placeholder`` and recording, `redact` and imports refuse to write
    /// (``CassetteError/redactionGaveUp(file:place:problems:)``), so a secret the pattern was to remove never reaches
    /// disk.
    public static func regex(_ pattern: String, replacement: String = Redaction.placeholder) throws -> RedactionFilter {
        RedactionFilter(kind: .regex(RegexBox(try NSRegularExpression(pattern: pattern)), replacement))
    }

    /// Runs `transform` on every request (recorded and live).
    public static func request(_ transform: @escaping @Sendable (inout Interaction.Request) -> Void) -> RedactionFilter {
        RedactionFilter(kind: .request(transform))
    }

    /// Runs `transform` on every interaction before it is written (responses included); live requests are not
    /// passed through it, so use it for response-side secrets.
    public static func interaction(_ transform: @escaping @Sendable (inout Interaction) -> Void) -> RedactionFilter {
        RedactionFilter(kind: .interaction(transform))
    }
}

/// An `NSRegularExpression`, which is immutable and documented as safe to use from any thread.
struct RegexBox: @unchecked Sendable {
    let expression: NSRegularExpression
    init(_ expression: NSRegularExpression) { self.expression = expression }

    /// `text` with every match replaced, within `RegexStepLimit`. A search that gives up leaves no part of `text`:
    /// it becomes ``Redaction/placeholder`` whole, and the writer's scope hears of it (``RedactionGiveUps``).
    func replace(in text: String, with template: String) -> String {
        switch RegexStepLimit.replacingMatches(of: expression, in: text, with: template) {
        case .replaced(let result):
            return result
        case .gaveUp(let reason):
            RedactionGiveUps.note("redaction filter regex /\(expression.pattern)/ \(reason)")
            return Redaction.placeholder
        }
    }
}
