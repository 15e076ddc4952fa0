import Foundation
import TapedeckCore

/// The rules a live answer is checked against a recorded one with, by `tapedeck verify` and by drift reports while
/// recording (``CassetteSummary/drift``). Pure: values in, violations out.
///
/// 1. **status**: the status codes are equal.
/// 2. **content type**: the media types are equal (parameters such as `charset` and letter case ignored).
/// 3. **shape**: when the recorded body is JSON, the live body is JSON of a compatible shape (``JSONShape``).
/// 4. **fields**: the value each `fields` path selects first is equal (numbers by value, keys in any order).
///
/// Headers other than `Content-Type` (`Date` and the like) are not compared.
///
/// ```swift
/// let violations = ContractRules(fields: ["user.id"]).check(recorded: expected, live: actual)
/// ```
public struct ContractRules: Sendable {
    /// The `JSONPath`s (or their dotted shorthand, `user.id`) whose values must be equal.
    public var fields: [JSONPath]

    /// Creates the rules.
    public init(fields: [JSONPath] = []) { self.fields = fields }

    /// An answer to compare: status, content type and body.
    public struct Answer: Sendable, Hashable {
        /// The status code.
        public var status: Int
        /// The `Content-Type` header, if any.
        public var contentType: String?
        /// The body bytes.
        public var body: Data

        /// Creates an answer.
        public init(status: Int, contentType: String?, body: Data) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    /// One broken rule.
    public struct Violation: Sendable, Hashable {
        /// The rule's name: `status`, `content-type`, `shape`, `field`.
        public var rule: String
        /// What differs.
        public var message: String

        /// `rule: message`
        public var line: String { "\(rule): \(message)" }
    }

    /// The media type of a `Content-Type` value, lowercased, without parameters.
    public static func mediaType(_ value: String?) -> String? {
        guard let value else { return nil }
        let type = MediaType.essence(of: value)
        return type.isEmpty ? nil : type
    }

    /// Every rule `live` breaks; empty when it honours the contract `recorded` describes.
    public func check(recorded: Answer, live: Answer) -> [Violation] {
        var result: [Violation] = []
        if recorded.status != live.status {
            result.append(Violation(rule: "status", message: "expected \(recorded.status), got \(live.status)"))
        }
        let expectedType = Self.mediaType(recorded.contentType), actualType = Self.mediaType(live.contentType)
        if expectedType != actualType {
            result.append(Violation(rule: "content-type", message: "expected \(expectedType ?? "(none)"), got \(actualType ?? "(none)")"))
        }
        guard let expectedJSON = CassetteJSON.parseBody(recorded.body) else { return result }
        guard let actualJSON = CassetteJSON.parseBody(live.body) else {
            result.append(Violation(rule: "shape", message: "expected a JSON body, got \(live.body.isEmpty ? "an empty body" : "\(live.body.count) bytes that are not JSON")"))
            return result
        }
        result += JSONShape.violations(recorded: expectedJSON, live: actualJSON).map { Violation(rule: "shape", message: $0) }
        for field in fields {
            let expected = field.select(in: expectedJSON).first, actual = field.select(in: actualJSON).first
            let equal: Bool
            switch (expected, actual) {
            case (nil, nil): equal = true
            case (let x?, let y?): equal = x.semanticallyEquals(y)
            default: equal = false
            }
            if !equal {
                result.append(Violation(rule: "field", message: "\(field): expected \(BodyJSON.brief(expected)), got \(BodyJSON.brief(actual))"))
            }
        }
        return result
    }
}
