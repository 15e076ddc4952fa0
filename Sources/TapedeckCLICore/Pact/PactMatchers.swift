import Foundation
import TapedeckCassette
import TapedeckCore

/// The Pact v3 `matchingRules` of a response, for `tapedeck convert --to pact --matchers`: a value that is not the
/// same on every call gets a matcher instead of being compared literally by the verifier.
///
/// A response body value gets one when
/// - it differed between repeats of the same request in the cassette (a `type` matcher: same JSON type);
/// - it is a UUID, or an ISO 8601 date or time (a `regex` matcher of that format);
/// - it is a whole number under a key that names an identifier (`id`, `userId`, `order_id`: an `integer` matcher);
/// - it is a redacted value, a placeholder or a stand-in (a `type` matcher: the recorded value is not the provider's).
/// A response header gets a `regex` matcher when its value differed between repeats or is a UUID or an HTTP or ISO
/// 8601 date. Status codes, media types and every other value stay literal.
///
/// ```swift
/// let rules = PactMatchers.rules(body: json, headers: headers, varying: PactMatchers.Varying())
/// // {"body": {"$.id": {"matchers": [{"match": "integer"}], "combine": "AND"}}, ...} or nil
/// ```
enum PactMatchers {
    /// What differed between the repeats of one request: body paths (`$.items[0].id`) and header names (lowercased).
    struct Varying: Equatable {
        var bodyPaths: Set<String> = []
        var headerNames: Set<String> = []
    }

    /// What differs among `answers`, the responses to repeats of one request (each its headers and its JSON body,
    /// when it has one).
    static func varying(_ answers: [(headers: HTTPHeaders, json: CassetteJSON?)]) -> Varying {
        var result = Varying()
        guard let first = answers.first, answers.count > 1 else { return result }
        for other in answers.dropFirst() {
            if let a = first.json, let b = other.json { differences(a, b, path: "$", into: &result.bodyPaths) }
            for field in first.headers where other.headers.values(for: field.name) != first.headers.values(for: field.name) {
                result.headerNames.insert(field.name.lowercased())
            }
        }
        return result
    }

    /// The `matchingRules` member's value for a response, or `nil` when nothing needs a matcher.
    static func rules(body: CassetteJSON?, headers: [CassetteJSON.Member], varying: Varying) -> CassetteJSON? {
        var bodyRules: [CassetteJSON.Member] = []
        if let body { collect(body, path: "$", key: nil, varying: varying.bodyPaths, into: &bodyRules) }
        var headerRules: [CassetteJSON.Member] = []
        for header in headers {
            guard case .string(let value) = header.value else { continue }
            if let format = Format(value, allowingHTTPDates: true) {
                headerRules.append(.init(header.key, matchers([format.matcher])))
            } else if varying.headerNames.contains(header.key.lowercased()) {
                headerRules.append(.init(header.key, matchers([.object([.init("match", .string("regex")), .init("regex", .string(".*"))])])))
            }
        }
        var members: [CassetteJSON.Member] = []
        if !bodyRules.isEmpty { members.append(.init("body", .object(bodyRules))) }
        if !headerRules.isEmpty { members.append(.init("header", .object(headerRules))) }
        return members.isEmpty ? nil : .object(members)
    }

    // MARK: Formats

    /// A recognised format of a string value.
    enum Format: Equatable {
        case uuid, isoDateTime, isoDate, httpDate

        init?(_ text: String, allowingHTTPDates: Bool = false) {
            if text.wholeMatch(of: Self.uuidPattern) != nil {
                self = .uuid
            } else if text.wholeMatch(of: Self.isoDateTimePattern) != nil {
                self = .isoDateTime
            } else if text.wholeMatch(of: Self.isoDatePattern) != nil {
                self = .isoDate
            } else if allowingHTTPDates, HTTPDate.parse(text) != nil {
                self = .httpDate
            } else {
                return nil
            }
        }

        /// The regular expression Pact's verifier applies (Rust `regex` syntax), anchored.
        var regex: String {
            switch self {
            case .uuid: return "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
            case .isoDateTime: return #"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$"#
            case .isoDate: return #"^\d{4}-\d{2}-\d{2}$"#
            case .httpDate: return #"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$"#
            }
        }

        var matcher: CassetteJSON { .object([.init("match", .string("regex")), .init("regex", .string(regex))]) }

        nonisolated(unsafe) private static let uuidPattern = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/
        nonisolated(unsafe) private static let isoDateTimePattern = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?/
        nonisolated(unsafe) private static let isoDatePattern = /\d{4}-\d{2}-\d{2}/
    }

    /// Whether `text` holds a redacted value: the `[REDACTED]` placeholder, or a stand-in `REDACTED-` followed by
    /// twelve base-32 characters (the form stable stand-ins take).
    static func isRedacted(_ text: String) -> Bool {
        text.contains(Redaction.placeholder) || text.contains(/REDACTED-[A-Z2-7a-z0-9]{12}/)
    }

    /// Whether a member name names an identifier: `id`, `ID`, or ending in `Id`, `ID` or `_id`.
    static func namesAnIdentifier(_ key: String) -> Bool {
        key.lowercased() == "id" || key.hasSuffix("Id") || key.hasSuffix("ID") || key.lowercased().hasSuffix("_id")
    }

    // MARK: Walking the body

    private static func collect(_ value: CassetteJSON, path: String, key: String?, varying: Set<String>,
                                into rules: inout [CassetteJSON.Member]) {
        switch value {
        case .object(let members):
            var seen = Set<String>()
            for member in members where seen.insert(member.key).inserted {
                collect(member.value, path: child(path, member.key), key: member.key, varying: varying, into: &rules)
            }
        case .array(let elements):
            if varying.contains(path) { rules.append(.init(path, matchers([typeMatcher]))) }
            for (index, element) in elements.enumerated() {
                collect(element, path: "\(path)[\(index)]", key: nil, varying: varying, into: &rules)
            }
        case .string(let text):
            if let format = Format(text) {
                rules.append(.init(path, matchers([format.matcher])))
            } else if isRedacted(text) || varying.contains(path) {
                rules.append(.init(path, matchers([typeMatcher])))
            }
        case .number(let literal):
            if let key, namesAnIdentifier(key), Int(literal) != nil {
                rules.append(.init(path, matchers([.object([.init("match", .string("integer"))])])))
            } else if varying.contains(path) {
                rules.append(.init(path, matchers([typeMatcher])))
            }
        case .bool, .null:
            if varying.contains(path) { rules.append(.init(path, matchers([typeMatcher]))) }
        }
    }

    /// Adds to `paths` every path where `a` and `b` differ in value but not in kind of container.
    private static func differences(_ a: CassetteJSON, _ b: CassetteJSON, path: String, into paths: inout Set<String>) {
        switch (a, b) {
        case (.object(let left), .object(let right)):
            var others: [String: CassetteJSON] = [:]
            for member in right where others[member.key] == nil { others[member.key] = member.value }
            for member in left { if let other = others[member.key] { differences(member.value, other, path: child(path, member.key), into: &paths) } }
        case (.array(let left), .array(let right)):
            if left.count != right.count { paths.insert(path) }
            for index in 0..<min(left.count, right.count) { differences(left[index], right[index], path: "\(path)[\(index)]", into: &paths) }
        default:
            if a != b { paths.insert(path) }
        }
    }

    /// `$.name`, or `$['odd name']` for a name that is not a plain identifier.
    static func child(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !(key.first!.isNumber)
        return plain ? "\(path).\(key)" : "\(path)['\(key.replacingOccurrences(of: "'", with: "\\'"))']"
    }

    private static let typeMatcher: CassetteJSON = .object([.init("match", .string("type"))])

    private static func matchers(_ list: [CassetteJSON]) -> CassetteJSON {
        .object([.init("matchers", .array(list)), .init("combine", .string("AND"))])
    }
}
