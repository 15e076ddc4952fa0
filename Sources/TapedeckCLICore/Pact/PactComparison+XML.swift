import Foundation
import TapedeckCassette

/// Pact's XML body matching (specification v2 to v4, as pact_matching and pact-jvm do it): element by element from
/// the root, at paths `$.root.child` with `['@attribute']` and `.#text` below an element.
/// - An element's name must be the same (namespace URI and local name) unless a rule at its path says otherwise: a
///   `regex` on its text (as pact-jvm reads it), a `type` with `min`/`max` on its number of children (only where the
///   rule is written for that path, not inherited from a parent's).
/// - Attributes: every expected one present, equal or matching its rule; a request may have no others, a response may.
/// - Child elements are grouped by name. Under a `type` rule each actual child is compared with the first expected
///   one of its name, in any number; otherwise they pair up in order and their counts must agree (a response may
///   have more). A child name the contract does not have is unexpected in a request, or under a `type` rule.
/// - Text: equal, or matching the rule at `….#text` (or inherited from the element's).
extension PactComparison {
    /// The mismatches of an XML body: `wanted` the contract's (a string), `got` the actual one.
    func xmlBodyMismatches(_ wanted: CassetteJSON, _ got: CassetteJSON?) throws(PactFileError) -> [String] {
        guard case .string(let source) = wanted else { throw PactFileError(path: "$.body", reason: "an XML body must be a string") }
        guard !source.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        let expectedRoot: PactXMLElement
        switch PactXMLElement.parse(source) {
        case .success(let root): expectedRoot = root
        case .failure(let error): throw PactFileError(path: "$.body", reason: "the contract's XML body is \(error)")
        }
        guard let got, case let text = Self.text(got), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return ["body: missing (expected XML with root <\(expectedRoot.name)>)"]
        }
        switch PactXMLElement.parse(text) {
        case .success(let actualRoot):
            var found: [String] = []
            compareElement(expectedRoot, actualRoot, path: [.root, .field(expectedRoot.name)], display: Self.display([.root, .field(expectedRoot.name)]),
                           into: &found)
            return found
        case .failure(let error):
            return ["body: \(error)"]
        }
    }

    private func compareElement(_ wanted: PactXMLElement, _ got: PactXMLElement, path: [PactPathToken], display: String, into found: inout [String]) {
        if let rule = rules.rule("body", at: path) {
            if let problem = elementVerdict(rule, wanted, got, inherited: rule.path.count < path.count).problem("\(display): <\(got.name)>") {
                found.append(problem)
                return
            }
        } else if wanted.name != got.name {
            found.append("\(display): expected element <\(wanted.name)>, got <\(got.name)>")
            return
        }
        compareAttributes(wanted, got, path: path, display: display, into: &found)
        compareChildren(wanted, got, path: path, display: display, into: &found)
        let textPath = path + [.field("#text")]
        if let rule = rules.rule("body", at: textPath) {
            if let problem = verdict(rule, expected: .string(wanted.text), actual: .string(got.text)).problem("\(display).#text: '\(got.text)'") {
                found.append(problem)
            }
        } else if wanted.text != got.text {
            found.append("\(display).#text: expected '\(wanted.text)', got '\(got.text)'")
        }
    }

    /// A rule applied to an element itself: names for `equality` and `type`, its text for `regex`, the number
    /// of children for `type` with `min`/`max` where the rule is the element's own.
    private func elementVerdict(_ rule: PactRules.Rule, _ wanted: PactXMLElement, _ got: PactXMLElement, inherited: Bool) -> PactVerdict {
        PactVerdict(rule.matchers.map { matcher -> PactVerdict in
            switch matcher {
            case .regex(let pattern):
                return PactVerdict(regex: pattern, text: got.text)
            case .type(nil, nil), .equality:
                return wanted.name == got.name ? .holds : .fails
            case .type(let min, let max):
                if inherited { return .holds }
                if let min, got.children.count < min { return .fails }
                if let max, got.children.count > max { return .fails }
                return .holds
            default:
                return .fails
            }
        }, all: rule.combinesWithAnd)
    }

    private func compareAttributes(_ wanted: PactXMLElement, _ got: PactXMLElement, path: [PactPathToken], display: String,
                                   into found: inout [String]) {
        if wanted.attributes.isEmpty, !got.attributes.isEmpty, isRequest {
            found.append("\(display): expected no attributes, got \(got.attributes.keys.sorted().map { "'\($0)'" }.joined(separator: ", "))")
            return
        }
        if isRequest ? wanted.attributes.count != got.attributes.count : wanted.attributes.count > got.attributes.count {
            found.append("\(display): expected \(isRequest ? "" : "at least ")\(wanted.attributes.count) attribute(s), got \(got.attributes.count)")
        }
        for (name, value) in wanted.attributes.sorted(by: { $0.key < $1.key }) {
            let attributePath = path + [.field("@" + name)], attributeDisplay = "\(display)['@\(name)']"
            guard let actual = got.attributes[name] else {
                found.append("\(attributeDisplay): missing")
                continue
            }
            if let rule = rules.rule("body", at: attributePath) {
                if let problem = verdict(rule, expected: .string(value), actual: .string(actual)).problem("\(attributeDisplay): '\(actual)'") {
                    found.append(problem)
                }
            } else if value != actual {
                found.append("\(attributeDisplay): expected '\(value)', got '\(actual)'")
            }
        }
    }

    private func compareChildren(_ wanted: PactXMLElement, _ got: PactXMLElement, path: [PactPathToken], display: String,
                                 into found: inout [String]) {
        if wanted.children.isEmpty, !got.children.isEmpty, isRequest {
            found.append("\(display): expected no child elements, got \(got.children.map { "<\($0.name)>" }.joined(separator: ", "))")
            return
        }
        let wantedGroups = Self.grouped(wanted.children), gotGroups = Self.grouped(got.children)
        for (name, actualGroup) in gotGroups {
            let childPath = path + [.field(name)], childDisplay = Self.display(childPath)
            guard let expectedGroup = wantedGroups.first(where: { $0.name == name })?.elements else {
                if isRequest || typeRuleApplies(at: childPath) { found.append("\(display): unexpected child <\(name)>") }
                continue
            }
            if typeRuleApplies(at: childPath) {
                for (index, child) in actualGroup.enumerated() {
                    compareElement(expectedGroup[0], child, path: childPath, display: Self.indexed(childDisplay, index, of: actualGroup.count),
                                   into: &found)
                }
                continue
            }
            for index in 0..<max(expectedGroup.count, actualGroup.count) {
                let indexed = Self.indexed(childDisplay, index, of: max(expectedGroup.count, actualGroup.count))
                if index >= expectedGroup.count {
                    if isRequest { found.append("\(indexed): unexpected child <\(name)>") }
                } else if index >= actualGroup.count {
                    found.append("\(indexed): expected child <\(name)>, but it is missing")
                } else {
                    compareElement(expectedGroup[index], actualGroup[index], path: childPath, display: indexed, into: &found)
                }
            }
        }
        for group in wantedGroups where !gotGroups.contains(where: { $0.name == group.name }) {
            found.append("\(display): expected child <\(group.name)>, but it is missing")
        }
    }

    /// Whether the rule that applies at `path` holds a `type` matcher (children are then compared with the first
    /// expected one, in any number).
    private func typeRuleApplies(at path: [PactPathToken]) -> Bool {
        rules.rule("body", at: path)?.matchers.contains { if case .type = $0 { true } else { false } } ?? false
    }

    /// Elements grouped by name, in the order each name first appears.
    private static func grouped(_ elements: [PactXMLElement]) -> [(name: String, elements: [PactXMLElement])] {
        var groups: [(name: String, elements: [PactXMLElement])] = []
        for element in elements {
            if let index = groups.firstIndex(where: { $0.name == element.name }) { groups[index].elements.append(element) } else { groups.append((element.name, [element])) }
        }
        return groups
    }

    /// `$.zoo.cat` as written in rules; a name that is not a plain word (a namespace URI in it) as `['…']`.
    private static func display(_ path: [PactPathToken]) -> String {
        path.map { token -> String in
            switch token {
            case .root: return "$"
            case .field(let name) where name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }): return ".\(name)"
            case .field(let name): return "['\(name)']"
            case .index(let index): return "[\(index)]"
            case .star: return "[*]"
            }
        }.joined()
    }

    /// `$.zoo.cat[1]` for the second of several children of one name; the path alone for an only child.
    private static func indexed(_ display: String, _ index: Int, of count: Int) -> String {
        count > 1 ? "\(display)[\(index)]" : display
    }
}
