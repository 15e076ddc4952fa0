import TapedeckCassette

/// One problem `tapedeck lint` found.
public struct LintFinding: Sendable, Hashable {
    /// What kind of problem.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// The file is not a valid cassette (the codec's own error).
        case schema
        /// A header, parameter or JSON member with a secret's name still holds a value.
        case secret
        /// A long, random-looking token that may be a key or a token.
        case entropy
        /// An interaction recorded longer ago than `--max-age`.
        case stale
        /// A file in `<name>.bodies/` that no body refers to.
        case unusedSidecar = "unused-sidecar"
        /// A body refers to a sidecar file that is missing.
        case missingSidecar = "missing-sidecar"
        /// An interaction whose response came from another URL: recorded with redirects followed inside one
        /// interaction (the URLSession adapter before the session pipeline), so its hops and their cookies are lost.
        case missingHops = "missing-hops"
        /// Recorded requests the cassette's match rules (its stored ones, else method and URL) cannot tell apart
        /// although their bodies differ: replay answers them by recorded order alone (`ReplayAmbiguity`).
        case ambiguousMatch = "ambiguous-match"
    }

    /// The file checked.
    public var file: String
    /// The rule.
    public var rule: Rule
    /// Where in the file, e.g. `interactions[2].request.headers.Authorization` (or `line 3, column 7`).
    public var place: String
    /// What is wrong.
    public var message: String

    /// Creates a finding.
    public init(file: String, rule: Rule, place: String, message: String) {
        self.file = file
        self.rule = rule
        self.place = place
        self.message = message
    }

    /// `file: place: [rule] message`
    public var line: String { "\(file): \(place): [\(rule.rawValue)] \(message)" }

    /// The finding as a JSON object.
    public var json: CassetteJSON {
        ["file": .string(file), "rule": .string(rule.rawValue), "place": .string(place), "message": .string(message)]
    }

    /// The finding for a cassette that could not be read, with the line and column when the codec gave them.
    public static func schema(_ error: CassetteError, file: String) -> LintFinding {
        switch error {
        case .corrupt(_, let line, let column, let reason):
            return LintFinding(file: file, rule: .schema, place: "line \(line), column \(column)", message: "invalid JSON: \(reason)")
        case .invalidFormat(_, let path, let reason):
            return LintFinding(file: file, rule: .schema, place: path, message: reason)
        case .unsupportedVersion(_, let found, let supported):
            return LintFinding(file: file, rule: .schema, place: "version", message: "version \(found) is not supported (this tapedeck reads \(supported))")
        case .invalidHAR(let path, let reason):
            return LintFinding(file: file, rule: .schema, place: path, message: "invalid HAR: \(reason)")
        default:
            return LintFinding(file: file, rule: .schema, place: "$", message: error.description)
        }
    }
}
