import ArgumentParser
import TapedeckCassette

/// `--match RULES`: the match rules of a command that records or replays a cassette, spelled as the rules print
/// themselves. Without it, a replay uses the cassette's stored rules (else method and URL) and a recording stores
/// none of its own choosing.
struct MatchOptions: ParsableArguments {
    @Option(name: .customLong("match"),
            help: ArgumentHelp("The match rules, comma-separated as they print: method,url,graphql or 'method,path,json(ignoring: $.user)' "
                               + "(default: the cassette's own, else method,url). A recording stores them in the cassette; given to a "
                               + "replay, they override the cassette's. Rules: \(MatchRule.spelledNames.joined(separator: ", ")).",
                               valueName: "rules"),
            completion: .list(["method,url", "method,host,path,graphql", "method,url,json", "method,url,body", "method,path",
                               "method,url,form", "method,url,multipart", "method,url,headers(Accept)"]))
    var match: String?

    /// The rules given, or `nil`.
    func rules() throws -> [MatchRule]? {
        guard let match else { return nil }
        do { return try MatchRule.parse(match) } catch { throw ValidationError("--match: \(error)") }
    }

    func validate() throws { _ = try rules() }

    /// Sets `configuration.matching` when rules were given.
    func apply(to configuration: inout CassetteConfiguration) throws {
        if let rules = try rules() { configuration.matching = rules }
    }
}
