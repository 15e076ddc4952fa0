import Foundation

/// vcrpy's `match_on` and Ruby VCR's `match_requests_on` matcher names as Tapedeck `MatchRule`s (which a
/// cassette file does not store: matching is configured in code, so the import prints the line to write).
///
/// ```swift
/// let mapped = VCRMatchOn.map(["method", "scheme", "host", "port", "path", "query"])   // vcrpy's default
/// mapped.swift   // "configuration.matching = [.method, .url]"
/// ```
public enum VCRMatchOn {
    /// The mapped rules and what did not map exactly.
    public struct Mapping: Equatable, Sendable {
        /// Swift expressions of the rules, e.g. `.method`, `.url`, `.json()`.
        public var rules: [String]
        /// One line per matcher with no exact equivalent.
        public var notes: [String]

        /// `configuration.matching = [...]`.
        public var swift: String { "configuration.matching = [\(rules.joined(separator: ", "))]" }
    }

    /// Maps matcher names (a leading `:` of a Ruby symbol and case are ignored).
    public static func map(_ names: [String]) -> Mapping {
        var names = names.map { name -> String in
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            return trimmed.hasPrefix(":") ? String(trimmed.dropFirst()) : trimmed
        }.filter { !$0.isEmpty }
        var rules: [String] = []
        var notes: [String] = []
        func add(_ rule: String) { if !rules.contains(rule) { rules.append(rule) } }
        let wholeURL = ["scheme", "host", "port", "path", "query"]
        if wholeURL.allSatisfy(names.contains) {
            names = names.filter { !wholeURL.contains($0) || $0 == "host" }.map { $0 == "host" ? "uri" : $0 }
        }
        for name in names {
            switch name {
            case "method": add(".method")
            case "uri", "url": add(".url")
            case "host": add(".host")
            case "path": add(".path")
            case "query": add(".query")
            case "raw_body": add(".body")
            case "body":
                add(".body")
                notes.append("body: vcrpy compares JSON and form bodies by content; use .json() or .form to do the same")
            case "body_as_json": add(".json()")
            case "scheme", "port":
                notes.append("\(name): no rule of its own; .url compares it with the rest of the URL")
            case "headers":
                notes.append("headers: VCR compares every header; Tapedeck compares the ones named, e.g. .headers(\"Accept\")")
            default:
                notes.append("\(name): no Tapedeck equivalent; write it as .custom(\"\(name)\") { recorded, live in … }")
            }
        }
        return Mapping(rules: rules, notes: notes)
    }
}
