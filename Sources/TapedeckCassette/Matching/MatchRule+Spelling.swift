import Foundation
import TapedeckCore

/// Why a written list of match rules (`--match`, a cassette's stored rules) could not be read.
public struct MatchRuleSpellingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The text as given.
    public var text: String
    /// The character (counted from 1) where the rule that is wrong starts.
    public var position: Int
    /// What is wrong, ending with the rules there are when a name is unknown.
    public var reason: String

    /// How messages print it.
    public var description: String { "match rules \(Shown.quoted(text)) at character \(position): \(reason)" }
}

extension MatchRule {
    /// Every rule name a written list may use, as ``description`` spells them.
    public static let spelledNames = ["method", "url", "host", "path", "query", "body", "form", "multipart",
                                      "headers(NAME, …)", "json", "json(ignoring: PATH, …)", "graphql",
                                      "graphql(ignoring variables: PATH, …)", "jsonrpc", "jsonrpc(ignoring params: PATH, …)"]

    /// Reads rules written as they print themselves (``description``), separated by commas:
    /// `method,url,graphql`, `method, path, json(ignoring: $.user, $.metadata)`, `headers(Accept, X-Tenant)`.
    /// Names are case-insensitive; `graphql(ignoring: …)` is read as `graphql(ignoring variables: …)`, and
    /// `jsonrpc(ignoring: …)` as `jsonrpc(ignoring params: …)`.
    ///
    /// ```swift
    /// let rules = try MatchRule.parse("method,host,path,graphql")
    /// rules.map(\.description)    // ["method", "host", "path", "graphql"]
    /// ```
    ///
    /// - Throws: ``MatchRuleSpellingError`` naming the rule and its place: an unknown name (the error lists the
    ///   names there are), an argument a rule does not take, an unsupported JSONPath, an empty list, or a custom
    ///   rule (a closure, which cannot be written down).
    public static func parse(_ text: String) throws(MatchRuleSpellingError) -> [MatchRule] {
        var rules: [MatchRule] = []
        for (piece, offset) in Self.split(text, at: ",") {
            rules.append(try rule(piece, at: offset + 1, in: text))
        }
        if rules.isEmpty {
            throw MatchRuleSpellingError(text: text, position: 1, reason: "no rule given; the rules are \(spelledNames.joined(separator: ", "))")
        }
        return rules
    }

    /// One rule written as ``description`` prints it (`json(ignoring: $.user)`).
    ///
    /// - Throws: ``MatchRuleSpellingError``, as ``parse(_:)``.
    public static func parseOne(_ text: String) throws(MatchRuleSpellingError) -> MatchRule {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return try rule(trimmed, at: 1, in: text)
    }

    /// Whether the rule can be written down (every rule but ``custom(_:_:)``, a closure).
    public var isStorable: Bool {
        if case .custom = kind { return false }
        return true
    }

    private static func rule(_ piece: String, at position: Int, in text: String) throws(MatchRuleSpellingError) -> MatchRule {
        func fail(_ reason: String) -> MatchRuleSpellingError { MatchRuleSpellingError(text: text, position: position, reason: reason) }
        let name: String, argument: String?
        if let open = piece.firstIndex(of: "(") {
            guard piece.hasSuffix(")") else { throw fail("\(Shown.quoted(piece)) opens a parenthesis it does not close") }
            name = piece[..<open].trimmingCharacters(in: .whitespaces).lowercased()
            argument = String(piece[piece.index(after: open)..<piece.index(before: piece.endIndex)]).trimmingCharacters(in: .whitespaces)
        } else {
            name = piece.lowercased()
            argument = nil
        }
        func noArgument(_ rule: MatchRule) throws(MatchRuleSpellingError) -> MatchRule {
            guard argument == nil else { throw fail("\(name) takes no argument") }
            return rule
        }
        func paths(after label: [String]) throws(MatchRuleSpellingError) -> Set<JSONPath> {
            guard var rest = argument, !rest.isEmpty else { return [] }
            guard let prefix = label.first(where: { rest.lowercased().hasPrefix($0) }) else {
                throw fail("\(name)(…) takes \(Shown.quoted(label[0] + " PATH, …")), found \(Shown.quoted(rest))")
            }
            rest = String(rest.dropFirst(prefix.count))
            var found: Set<JSONPath> = []
            for (expression, _) in split(rest, at: ",") {
                do { found.insert(try JSONPath(expression)) } catch { throw fail("\(error)") }
            }
            return found
        }
        switch name {
        case "method": return try noArgument(.method)
        case "url", "uri": return try noArgument(.url)
        case "host": return try noArgument(.host)
        case "path": return try noArgument(.path)
        case "query": return try noArgument(.query)
        case "body": return try noArgument(.body)
        case "form": return try noArgument(.form)
        case "multipart": return try noArgument(.multipart)
        case "json": return .json(ignoring: try paths(after: ["ignoring:"]))
        case "graphql": return .graphQL(ignoringVariables: try paths(after: ["ignoring variables:", "ignoring:"]))
        case "jsonrpc", "json-rpc": return .jsonRPC(ignoringParams: try paths(after: ["ignoring params:", "ignoring:"]))
        case "headers", "header":
            let names = split(argument ?? "", at: ",").map(\.0)
            guard !names.isEmpty else { throw fail("headers(…) needs the names of the fields to compare, e.g. headers(Accept)") }
            return .headers(names)
        case _ where name.hasPrefix("custom"):
            throw fail("a custom rule is a closure: it cannot be written down, only set in code (MatchRule.custom)")
        default:
            throw fail("unknown rule \(Shown.quoted(name)); the rules are \(spelledNames.joined(separator: ", "))")
        }
    }

    /// The pieces of `text` between top-level `separator`s (outside parentheses, brackets and quotes), trimmed and
    /// non-empty, each with the offset of its first character.
    static func split(_ text: String, at separator: Character) -> [(String, Int)] {
        var pieces: [(String, Int)] = []
        var depth = 0
        var quote: Character?
        var current = ""
        var start = 0
        func flush() {
            let leading = current.prefix { $0 == " " }.count
            let piece = current.trimmingCharacters(in: .whitespaces)
            if !piece.isEmpty { pieces.append((piece, start + leading)) }
        }
        for (offset, character) in text.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "(" || character == "[" {
                depth += 1
            } else if character == ")" || character == "]" {
                depth = max(0, depth - 1)
            } else if character == separator, depth == 0 {
                flush()
                current = ""
                start = offset + 1
                continue
            }
            current.append(character)
        }
        flush()
        return pieces
    }
}

extension Array where Element == MatchRule {
    /// The rules as a list reads them back (``MatchRule/parse(_:)``): `method,host,path,graphql`.
    public var spelled: String { map(\.description).joined(separator: ",") }
}
