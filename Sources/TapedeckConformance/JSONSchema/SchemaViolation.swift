/// One way a JSON value breaks a JSON Schema: where in the value, which rule, and why.
///
/// ```swift
/// let schema = try JSONSchemaValidator(schema: ["type": "object", "required": ["id"]])
/// schema.violations(of: ["name": "Ada"]).first?.description
/// // "/: required: the member \"id\" is missing"
/// ```
public struct SchemaViolation: Hashable, Sendable, CustomStringConvertible {
    /// The JSON pointer (RFC 6901) of the offending value within the checked value; `""` is the value itself.
    public var instancePointer: String
    /// The schema keyword whose rule failed, e.g. `type`, `required`, `maxLength`.
    public var keyword: String
    /// What was wrong, in words.
    public var message: String

    /// Creates a violation.
    public init(instancePointer: String, keyword: String, message: String) {
        self.instancePointer = instancePointer
        self.keyword = keyword
        self.message = message
    }

    /// `pointer: keyword: message`, the pointer `/` for the value itself.
    public var description: String {
        "\(instancePointer.isEmpty ? "/" : instancePointer): \(keyword): \(message)"
    }
}

/// JSON pointer (RFC 6901) building.
enum JSONPointer {
    /// `pointer` extended by one reference token, escaped (`~` as `~0`, `/` as `~1`).
    static func appending(_ token: String, to pointer: String) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) || token.utf8.contains(UInt8(ascii: "/")) else { return pointer + "/" + token }
        return pointer + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The reference tokens of `pointer` (without the leading `#`), unescaped.
    static func tokens(_ pointer: Substring) -> [String] {
        guard !pointer.isEmpty else { return [] }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                .removingPercentEncoding ?? String($0)
        }
    }
}
