import Foundation
import TapedeckCassette
import TapedeckCore

/// Pact's matching of an actual HTTP request or response against an expected one, with the expected one's matching
/// rules, as the Pact specification's testcases (pact-foundation/pact-specification) define it: method and status
/// exactly, path and query values exactly or by their rules, expected headers present with equal comma-separated
/// values (names case-insensitive, media-type parameters in any order), and bodies by JSON structure: a response may
/// have keys the contract does not name, a request may not; arrays keep their length unless a `type` rule says
/// otherwise, its elements then matched against the first expected one. XML bodies are compared element by element
/// (PactComparison+XML.swift).
///
/// ```swift
/// let mismatches = try PactComparison(expected: contractRequest, version: 3, isRequest: true).mismatches(actual: request)
/// ```
struct PactComparison: Sendable {
    let expected: CassetteJSON
    let rules: PactRules
    let isRequest: Bool
    let version: Int

    /// Reads the expected part's `matchingRules` (as `version` writes them).
    init(expected: CassetteJSON, version: Int, isRequest: Bool, at location: String = "$") throws(PactFileError) {
        self.expected = expected
        self.version = version
        self.isRequest = isRequest
        rules = try PactRules.parse(expected["matchingRules"], version: version, at: "\(location).matchingRules")
    }

    /// Why `actual` does not match, one line each; empty when it does.
    func mismatches(actual: CassetteJSON) throws(PactFileError) -> [String] {
        try differences(actual: actual).map(\.description)
    }

    /// Why `actual` does not match, weighed as every near-miss ranker weighs a difference (`NearMissDifference.Weight`):
    /// another path or status is another resource, another method another operation; each query parameter and header
    /// is a detail, and so is the body, however many of its members differ. Empty when it matches.
    func differences(actual: CassetteJSON) throws(PactFileError) -> [NearMissDifference] {
        typealias Weight = NearMissDifference.Weight
        var found: [NearMissDifference] = []
        func add(_ lines: [String], weight: Int) { found += lines.map { NearMissDifference(line: $0, weight: weight) } }
        if let method = expected["method"]?.stringValue, method.uppercased() != (actual["method"]?.stringValue ?? "").uppercased() {
            add(["method: expected \(method), got \(actual["method"]?.stringValue ?? "none")"], weight: Weight.method)
        }
        if case .number(let status)? = expected["status"], actual["status"] != .number(status), rules.rule("status", at: []) == nil {
            add(["status: expected \(status), got \(actual["status"].map { "\($0)" } ?? "none")"], weight: Weight.place)
        }
        if let path = expected["path"]?.stringValue {
            let got = actual["path"]?.stringValue ?? ""
            if let rule = rules.rule("path", at: []) {
                add(verdict(rule, expected: .string(path), actual: .string(got)).problem("path: '\(got)'").map { [$0] } ?? [], weight: Weight.place)
            } else if path != got {
                add(["path: expected '\(path)', got '\(got)'"], weight: Weight.place)
            }
        }
        add(queryMismatches(actual["query"]), weight: Weight.detail)
        add(headerMismatches(actual["headers"]), weight: Weight.detail)
        let body = try bodyMismatches(actual)
        found += body.enumerated().map { NearMissDifference(line: $0.element, weight: $0.offset == 0 ? Weight.detail : 0) }
        return found
    }

    // MARK: Query

    private func queryMismatches(_ actualQuery: CassetteJSON?) -> [String] {
        guard let expectedQuery = expected["query"] else { return [] }
        let wanted = Self.queryMap(expectedQuery), got = Self.queryMap(actualQuery ?? .object([]))
        var found: [String] = []
        for (name, values) in wanted {
            guard let actualValues = got.first(where: { $0.name == name })?.values else {
                found.append("query: missing parameter '\(name)'")
                continue
            }
            if let rule = rules.rule("query", at: [.field(name)]) {
                for value in actualValues {
                    if let problem = verdict(rule, expected: .string(values.first ?? ""), actual: .string(value)).problem("query \(name): '\(value)'") {
                        found.append(problem)
                    }
                }
            } else if values != actualValues {
                found.append("query \(name): expected \(values), got \(actualValues)")
            }
        }
        for (name, _) in got where !wanted.contains(where: { $0.name == name }) { found.append("query: unexpected parameter '\(name)'") }
        return found
    }

    /// A query as names with their values in order: v2's string (`a=1&b=2`) or v3's map of lists (or strings).
    static func queryMap(_ query: CassetteJSON) -> [(name: String, values: [String])] {
        var result: [(name: String, values: [String])] = []
        func add(_ name: String, _ value: String) {
            if let index = result.firstIndex(where: { $0.name == name }) { result[index].values.append(value) } else { result.append((name, [value])) }
        }
        switch query {
        case .string(let text):
            for (name, value) in URLEncodedForm.pairs(Data(text.utf8)) { add(name, value) }
        case .object(let members):
            for member in members {
                switch member.value {
                case .array(let values): for value in values { add(member.key, Self.text(value)) }
                default: add(member.key, Self.text(member.value))
                }
            }
        default: break
        }
        return result
    }

    // MARK: Headers

    private func headerMismatches(_ actualHeaders: CassetteJSON?) -> [String] {
        guard case .object(let wanted)? = expected["headers"] else { return [] }
        var got: [String: String] = [:]
        if case .object(let members)? = actualHeaders {
            for member in members { got[member.key.lowercased()] = Self.headerText(member.value) }
        }
        var found: [String] = []
        for header in wanted {
            let value = Self.headerText(header.value)
            guard let actual = got[header.key.lowercased()] else {
                found.append("header \(header.key): missing")
                continue
            }
            if let rule = rules.rule("header", at: [.field(header.key)]) ?? rules.rule("header", at: [.field(header.key.lowercased())]) {
                if let problem = verdict(rule, expected: .string(value), actual: .string(actual)).problem("header \(header.key): '\(actual)'") {
                    found.append(problem)
                }
            } else if !Self.sameValues(value, actual) {
                found.append("header \(header.key): expected '\(value)', got '\(actual)'")
            }
        }
        return found
    }

    private static func headerText(_ value: CassetteJSON) -> String {
        if case .array(let lines) = value { return lines.map(text).joined(separator: ", ") }
        return text(value)
    }

    private static func values(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Equal header values: the same comma-separated values in order, each a media type (``sameMediaType(_:_:)``)
    /// when both are, else the same text.
    static func sameValues(_ expected: String, _ actual: String) -> Bool {
        let wanted = values(expected), got = values(actual)
        guard wanted.count == got.count else { return false }
        return zip(wanted, got).allSatisfy { a, b in a.contains("/") && b.contains("/") ? sameMediaType(a, b) : a == b }
    }

    /// The same media type: type and subtype case-insensitively, and every parameter the expected one names present
    /// with the same value (in any order; `charset` case-insensitively).
    static func sameMediaType(_ a: String, _ b: String) -> Bool {
        func parse(_ text: String) -> (String, [String: String]) {
            let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            var parameters: [String: String] = [:]
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                let name = pair[0].lowercased()
                let value = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                parameters[name] = name == "charset" ? value.lowercased() : value
            }
            return ((parts.first ?? "").lowercased(), parameters)
        }
        let (typeA, parametersA) = parse(a), (typeB, parametersB) = parse(b)
        return typeA == typeB && parametersA.allSatisfy { parametersB[$0.key] == $0.value }
    }

    // MARK: Bodies

    private func bodyMismatches(_ actual: CassetteJSON) throws(PactFileError) -> [String] {
        guard let wantedBody = Self.unwrapped(expected["body"]) else { return [] }
        let gotBody = Self.unwrapped(actual["body"])
        let contentType = Self.contentType(expected) ?? Self.contentType(actual)
        let looksLikeXML = wantedBody.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<") == true
        if contentType?.contains("xml") == true || (contentType == nil && looksLikeXML) {
            return try xmlBodyMismatches(wantedBody, gotBody)
        }
        if case .string(let text) = wantedBody, contentType.map({ !$0.contains("json") }) ?? true {
            guard let gotBody else { return text.isEmpty ? [] : ["body: missing"] }
            let got = Self.text(gotBody)
            if let rule = rules.rule("body", at: [.root]) {
                return verdict(rule, expected: wantedBody, actual: .string(got)).problem("body: '\(got)'").map { [$0] } ?? []
            }
            return text == got ? [] : ["body: expected '\(text)', got '\(got)'"]
        }
        // An expected null or empty body is met by none at all.
        guard let gotBody else { return wantedBody == .string("") || wantedBody == .null ? [] : ["body: missing"] }
        var found: [String] = []
        compare(wantedBody, gotBody, path: [.root], display: "$", cascade: nil, into: &found)
        return found
    }

    /// v4's `{"content": …, "contentType": …, "encoded": …}` as its content; other forms as they are.
    static func unwrapped(_ body: CassetteJSON?) -> CassetteJSON? {
        guard let body else { return nil }
        if case .object(let members) = body, members.contains(where: { $0.key == "content" }),
           members.allSatisfy({ ["content", "contentType", "encoded", "contentTypeHint"].contains($0.key) }) {
            return body["content"]
        }
        return body
    }

    private static func contentType(_ part: CassetteJSON) -> String? {
        if let hinted = part["body"]?["contentType"]?.stringValue { return hinted.lowercased() }
        guard case .object(let headers)? = part["headers"] else { return nil }
        return headers.first { $0.key.lowercased() == "content-type" }.map { headerText($0.value).lowercased() }
    }

    private func compare(_ wanted: CassetteJSON, _ got: CassetteJSON, path: [PactPathToken], display: String, cascade: PactRules.Rule?,
                         into found: inout [String]) {
        let rule = rules.rule("body", at: path) ?? cascade
        if let rule, rule.matchers != [.equality] {
            if let problem = verdict(rule, expected: wanted, actual: got).problem("\(display): \(Self.json(got))") {
                found.append(problem)
                return
            }
            switch (wanted, got) {
            case (.array(let wantedElements), .array(let gotElements)):
                guard let template = wantedElements.first else { return }
                for (index, element) in gotElements.enumerated() {
                    compare(template, element, path: path + [.index(index)], display: "\(display)[\(index)]", cascade: rule, into: &found)
                }
            case (.object(let wantedMembers), .object(let gotMembers)):
                if rule.matchers.contains(where: { if case .values = $0 { return true }; if case .eachValue = $0 { return true }; return false }) {
                    guard let template = wantedMembers.first?.value else { return }
                    for member in gotMembers {
                        compare(template, member.value, path: path + [.field(member.key)], display: "\(display).\(member.key)", cascade: rule, into: &found)
                    }
                    return
                }
                compareMembers(wantedMembers, gotMembers, path: path, display: display, cascade: rule, into: &found)
            default:
                return
            }
            return
        }
        switch (wanted, got) {
        case (.object(let wantedMembers), .object(let gotMembers)):
            compareMembers(wantedMembers, gotMembers, path: path, display: display, cascade: nil, into: &found)
        case (.array(let wantedElements), .array(let gotElements)):
            if wantedElements.count != gotElements.count {
                found.append("\(display): expected \(wantedElements.count) element(s), got \(gotElements.count)")
            }
            for index in 0..<min(wantedElements.count, gotElements.count) {
                compare(wantedElements[index], gotElements[index], path: path + [.index(index)], display: "\(display)[\(index)]", cascade: nil, into: &found)
            }
        default:
            if !Self.equal(wanted, got) { found.append("\(display): expected \(Self.json(wanted)), got \(Self.json(got))") }
        }
    }

    private func compareMembers(_ wanted: [CassetteJSON.Member], _ got: [CassetteJSON.Member], path: [PactPathToken], display: String,
                                cascade: PactRules.Rule?, into found: inout [String]) {
        var gotByKey: [String: CassetteJSON] = [:]
        for member in got where gotByKey[member.key] == nil { gotByKey[member.key] = member.value }
        for member in wanted {
            guard let value = gotByKey[member.key] else {
                found.append("\(display).\(member.key): missing")
                continue
            }
            compare(member.value, value, path: path + [.field(member.key)], display: "\(display).\(member.key)", cascade: cascade, into: &found)
        }
        if isRequest {
            let named = Set(wanted.map(\.key))
            for member in got where !named.contains(member.key) { found.append("\(display).\(member.key): unexpected key") }
        }
    }

    // MARK: Matchers

    /// How `actual` fares against `rule` (all its matchers, or one with `OR`), `expected` being the example.
    func verdict(_ rule: PactRules.Rule, expected: CassetteJSON, actual: CassetteJSON) -> PactVerdict {
        PactVerdict(rule.matchers.map { Self.verdict($0, expected: expected, actual: actual) }, all: rule.combinesWithAnd)
    }

    /// How `actual` fares against one matcher: a regular expression runs within `RegexStepLimit`, and one that gives
    /// up decides nothing (``PactVerdict/gaveUp(_:)``, which fails the match and says why).
    static func verdict(_ matcher: PactMatcher, expected: CassetteJSON, actual: CassetteJSON) -> PactVerdict {
        switch matcher {
        case .regex(let pattern):
            if case .array = actual { return .holds }
            if case .object = actual { return .holds }
            return PactVerdict(regex: pattern, text: text(actual))
        case .eachKey(let inner):
            guard case .object(let members) = actual else { return .fails }
            return PactVerdict(members.flatMap { member in inner.map { verdict($0, expected: .string(member.key), actual: .string(member.key)) } }, all: true)
        case .eachValue(let inner):
            guard case .object(let members) = actual else { return kind(expected) == kind(actual) ? .holds : .fails }
            return PactVerdict(members.flatMap { member in inner.map { verdict($0, expected: member.value, actual: member.value) } }, all: true)
        default:
            return holds(matcher, expected: expected, actual: actual) ? .holds : .fails
        }
    }

    /// Whether `actual` satisfies a matcher that needs no regular expression given by the contract.
    private static func holds(_ matcher: PactMatcher, expected: CassetteJSON, actual: CassetteJSON) -> Bool {
        switch matcher {
        case .equality:
            return equal(expected, actual)
        case .type(let min, let max):
            if case .array(let elements) = actual {
                if let min, elements.count < min { return false }
                if let max, elements.count > max { return false }
            }
            return kind(expected) == kind(actual)
        case .include(let part): return text(actual).contains(part)
        case .integer:
            if case .number(let literal) = actual { return Int(literal) != nil }
            return false
        case .decimal:
            if case .number(let literal) = actual { return literal.contains(".") }
            return false
        case .number:
            if case .number = actual { return true }
            return false
        case .null: return actual == .null
        case .boolean:
            if case .bool = actual { return true }
            return false
        case .notEmpty:
            switch actual {
            case .string(let text): return !text.isEmpty
            case .array(let elements): return !elements.isEmpty
            case .object(let members): return !members.isEmpty
            case .null: return false
            default: return true
            }
        case .semver:
            return text(actual).wholeMatch(of: /\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?/) != nil
        case .temporal:
            if case .string = actual { return true }
            return false
        case .contentType, .values, .statusCode:
            return true
        case .regex, .eachKey, .eachValue:
            // Decided by ``verdict(_:expected:actual:)`` before it comes here.
            return verdict(matcher, expected: expected, actual: actual) == .holds
        }
    }

    private static func kind(_ value: CassetteJSON) -> String { JSONShape.typeName(value) }

    /// Equal JSON values; numbers by value (`1.0` equals `1`).
    static func equal(_ a: CassetteJSON, _ b: CassetteJSON) -> Bool {
        if case .number(let x) = a, case .number(let y) = b { return x == y || (Double(x) != nil && Double(x) == Double(y)) }
        return a == b
    }

    /// A value as JSON text (a string quoted).
    static func json(_ value: CassetteJSON) -> String { String(decoding: CassetteJSON.serialize(value), as: UTF8.self) }

    /// A value as text: a string as itself, anything else as its JSON.
    static func text(_ value: CassetteJSON) -> String {
        if case .string(let text) = value { return text }
        return String(decoding: CassetteJSON.serialize(value), as: UTF8.self)
    }
}
