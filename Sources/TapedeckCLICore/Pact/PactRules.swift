import Foundation
import TapedeckCassette

/// Why a Pact document (or its matching rules) cannot be read: where, as a JSON path, and what is wrong there.
public struct PactFileError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The JSON path, e.g. `$.interactions[2].response.matchingRules.body['$.id'].matchers[0].match`.
    public var path: String
    /// What is wrong.
    public var reason: String

    /// `$.interactions[2]…: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// One step of a Pact matching-rule path (`$.animals[*].name`).
enum PactPathToken: Equatable, Sendable {
    case root, field(String), index(Int), star
}

/// A Pact matcher, the ones specification v2, v3 and v4 define for HTTP bodies, headers, query values and paths.
enum PactMatcher: Equatable, Sendable {
    case equality
    case regex(String)
    /// `type`, with the `min`/`max` length of an array when given (v2's `{"min": 1}` too).
    case type(min: Int?, max: Int?)
    case include(String)
    case integer, decimal, number, null, boolean, notEmpty, semver
    /// `date`, `time`, `timestamp`/`datetime` with their format (Java `DateTimeFormatter` style), which is not
    /// evaluated: any string is accepted.
    case temporal(String)
    case contentType(String)
    /// `values`: a map's values are matched, its keys not.
    case values
    case eachKey([PactMatcher])
    case eachValue([PactMatcher])
    case statusCode(String)
}

/// The matching rules of one request or response, by category (`body`, `header`, `query`, `path`, `status`).
struct PactRules: Equatable, Sendable {
    struct Rule: Equatable, Sendable {
        var path: [PactPathToken]
        var matchers: [PactMatcher]
        /// `AND` (all must hold) unless the rule says `OR`.
        var combinesWithAnd: Bool
    }

    var categories: [String: [Rule]] = [:]

    /// The rules of `json` (a `matchingRules` value) in the form of specification `version` (2: flat `$.body…`,
    /// `$.headers.…`, `$.query.…`, `$.path` keys; 3 and 4: categories). `at` is its JSON path, for errors.
    static func parse(_ json: CassetteJSON?, version: Int, at location: String) throws(PactFileError) -> PactRules {
        guard let json else { return PactRules() }
        guard case .object(let members) = json else { throw PactFileError(path: location, reason: "expected an object of matching rules") }
        var rules = PactRules()
        if version < 3 {
            for member in members {
                let at = "\(location)['\(member.key)']"
                let tokens = try path(member.key, at: at)
                guard tokens.count >= 2, case .field(let category) = tokens[1] else {
                    throw PactFileError(path: at, reason: "a v2 rule path starts $.body, $.headers, $.query or $.path")
                }
                let name = category == "headers" ? "header" : category
                var rest = Array(tokens.dropFirst(2))
                if name == "body" { rest.insert(.root, at: 0) }
                rules.categories[name, default: []].append(Rule(path: rest, matchers: [try matcher(member.value, at: at)], combinesWithAnd: true))
            }
            return rules
        }
        for category in members {
            let at = "\(location).\(category.key)"
            guard case .object(let entries) = category.value else { throw PactFileError(path: at, reason: "expected an object") }
            if category.key == "path" || category.key == "status" || entries.contains(where: { $0.key == "matchers" }) {
                rules.categories[category.key, default: []].append(try rule(category.value, path: [], at: at))
                continue
            }
            for entry in entries {
                let entryAt = "\(at)['\(entry.key)']"
                let tokens: [PactPathToken]
                if category.key == "body" {
                    tokens = try path(entry.key, at: entryAt)
                } else if entry.key.hasPrefix("$") {
                    tokens = Array(try path(entry.key, at: entryAt).dropFirst())
                } else {
                    tokens = [.field(entry.key)]
                }
                rules.categories[category.key, default: []].append(try rule(entry.value, path: tokens, at: entryAt))
            }
        }
        return rules
    }

    private static func rule(_ json: CassetteJSON, path: [PactPathToken], at location: String) throws(PactFileError) -> Rule {
        guard case .array(let list)? = json["matchers"] else {
            throw PactFileError(path: "\(location).matchers", reason: "expected a list of matchers")
        }
        var matchers: [PactMatcher] = []
        for (index, item) in list.enumerated() { matchers.append(try matcher(item, at: "\(location).matchers[\(index)]")) }
        let combine = json["combine"]?.stringValue?.uppercased() ?? "AND"
        guard combine == "AND" || combine == "OR" else {
            throw PactFileError(path: "\(location).combine", reason: "'\(combine)' is neither AND nor OR")
        }
        return Rule(path: path, matchers: matchers, combinesWithAnd: combine == "AND")
    }

    /// One matcher object: `{"match": "type", "min": 1}`, `{"match": "regex", "regex": "…"}`, v2's `{"regex": "…"}`.
    static func matcher(_ json: CassetteJSON, at location: String) throws(PactFileError) -> PactMatcher {
        guard case .object = json else { throw PactFileError(path: location, reason: "expected a matcher object") }
        func string(_ key: String) throws(PactFileError) -> String {
            guard let value = json[key]?.stringValue else { throw PactFileError(path: "\(location).\(key)", reason: "missing (a string)") }
            return value
        }
        func integer(_ key: String) -> Int? {
            if case .number(let literal)? = json[key] { return Int(literal) }
            return nil
        }
        let kind = json["match"]?.stringValue ?? (json["regex"] != nil ? "regex" : json["min"] != nil || json["max"] != nil ? "type" : "")
        switch kind {
        case "equality": return .equality
        case "regex": return .regex(try string("regex"))
        case "type", "min", "max", "minType", "maxType", "minmax": return .type(min: integer("min"), max: integer("max"))
        case "include": return .include(try string("value"))
        case "integer": return .integer
        case "decimal": return .decimal
        case "number": return .number
        case "null": return .null
        case "boolean": return .boolean
        case "notEmpty": return .notEmpty
        case "semver": return .semver
        case "date", "time", "timestamp", "datetime":
            return .temporal(json["format"]?.stringValue ?? json[kind]?.stringValue ?? "")
        case "contentType": return .contentType(try string("value"))
        case "values": return .values
        case "statusCode": return .statusCode(json["status"]?.stringValue ?? "")
        case "eachKey", "eachValue":
            var inner: [PactMatcher] = []
            if case .array(let rules)? = json["rules"] {
                for (index, rule) in rules.enumerated() { inner.append(try matcher(rule, at: "\(location).rules[\(index)]")) }
            }
            return kind == "eachKey" ? .eachKey(inner) : .eachValue(inner)
        case "":
            throw PactFileError(path: location, reason: "a matcher without \"match\"")
        default:
            throw PactFileError(path: "\(location).match", reason: "unknown matcher '\(kind)' (known: equality, regex, type, min, max, include, integer, decimal, number, null, boolean, notEmpty, semver, date, time, timestamp, contentType, values, eachKey, eachValue, statusCode)")
        }
    }

    /// `$.a.b[0][*].c`, `$['odd name'].*` as tokens, read as a `JSONPath`; a v2 path that names a field right after
    /// `$` (`$body`) as Pact reads it, `$.body`.
    static func path(_ text: String, at location: String) throws(PactFileError) -> [PactPathToken] {
        guard text.hasPrefix("$") else { throw PactFileError(path: location, reason: "a rule path starts with $") }
        let parsed: JSONPath
        do { parsed = try JSONPath(text == "$" || text.hasPrefix("$.") || text.hasPrefix("$[") ? text : "$." + text.dropFirst()) } catch {
            throw PactFileError(path: location, reason: error.description)
        }
        return [.root] + parsed.steps.map { step in
            switch step {
            case .name(let name), .member(let name): .field(name)
            case .index(let index): .index(index)
            case .wildcard: .star
            }
        }
    }

    /// The rule that applies at `path` in `category`: of the rules whose path is a prefix of it (a rule applies to
    /// what is under it too), the one with the greatest weight (an exact step weighs 2, a `*` 1, multiplied), the
    /// longer on a tie; `nil` when none does.
    func rule(_ category: String, at path: [PactPathToken]) -> Rule? {
        var best: (rule: Rule, weight: Int)?
        for rule in categories[category] ?? [] where rule.path.count <= path.count {
            var weight = 1
            for (ruleToken, token) in zip(rule.path, path) {
                switch (ruleToken, token) {
                case (.root, .root): weight *= 2
                case (.field(let a), .field(let b)) where a == b: weight *= 2
                case (.index(let a), .index(let b)) where a == b: weight *= 2
                case (.star, .field), (.star, .index): weight *= 1
                default: weight = 0
                }
                if weight == 0 { break }
            }
            guard weight > 0 else { continue }
            if best == nil || weight > best!.weight || (weight == best!.weight && rule.path.count > best!.rule.path.count) {
                best = (rule, weight)
            }
        }
        return best?.rule
    }
}
