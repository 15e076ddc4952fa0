import Foundation

/// How a query parameter, header field or form field value is matched.
///
/// ```swift
/// RequestPattern(.get, "/search").query("q", .contains("swift")).header("Accept", .absent)
/// ```
public enum ValuePattern: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The value equals this text exactly.
    case equalTo(String)
    /// The value contains this text.
    case contains(String)
    /// The whole value matches this regular expression.
    case matches(StubRegex)
    /// The field is present, whatever its value.
    case present
    /// The field is absent.
    case absent
    /// No value contains this text (an absent field satisfies it too).
    case doesNotContain(String)
    /// No value matches this regular expression as a whole (an absent field satisfies it too).
    case doesNotMatch(StubRegex)

    /// A literal is ``equalTo(_:)``.
    public init(stringLiteral value: String) { self = .equalTo(value) }

    /// Whether one value (not the field's absence) satisfies the pattern.
    func accepts(_ value: String) -> Bool {
        switch self {
        case .equalTo(let expected): return value == expected
        case .contains(let part): return value.contains(part)
        case .matches(let regex): return regex.matchesWhole(value)
        case .present: return true
        case .absent: return false
        case .doesNotContain(let part): return !value.contains(part)
        case .doesNotMatch(let regex): return regex.evaluate(value) == .notFound  // one that gave up proves nothing
        }
    }

    /// `nil` when the field's `values` (empty when absent) satisfy the pattern, or a sentence saying how they differ.
    func difference(values: [String]) -> String? {
        if case .absent = self {
            return values.isEmpty ? nil : "expected absent, got \(Self.quoted(values))"
        }
        if values.isEmpty { return isNegative ? nil : "expected \(self), but it is absent" }
        return values.contains(where: accepts) ? nil : "expected \(self), got \(Self.quoted(values))" + limitNote(values)
    }

    /// Says when a regular expression gave up on one of `values` (`RegexStepLimit` (TapedeckCore)), else empty.
    private func limitNote(_ values: [String]) -> String {
        switch self {
        case .matches(let regex), .doesNotMatch(let regex): return regex.limitNote(values)
        default: return ""
        }
    }

    /// Whether the pattern only rules values out (``doesNotContain(_:)``, ``doesNotMatch(_:)``), so an absent field
    /// satisfies it, as in WireMock.
    var isNegative: Bool {
        switch self {
        case .doesNotContain, .doesNotMatch: return true
        default: return false
        }
    }

    private static func quoted(_ values: [String]) -> String {
        values.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .equalTo(let text): return "equal to \"\(text)\""
        case .contains(let text): return "containing \"\(text)\""
        case .matches(let regex): return "matching \(regex)"
        case .present: return "present"
        case .absent: return "absent"
        case .doesNotContain(let text): return "not containing \"\(text)\""
        case .doesNotMatch(let regex): return "not matching \(regex)"
        }
    }
}
