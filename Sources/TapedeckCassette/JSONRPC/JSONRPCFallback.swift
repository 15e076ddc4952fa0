import Foundation
import TapedeckCore

/// Recorded requests whose body says it is JSON-RPC (a `"jsonrpc"` member) but is not a message the
/// ``MatchRule/jsonRPC(ignoringParams:)`` rule can read: that rule compares them byte for byte, and the replay says so
/// once, naming each, where it names requests the rules cannot tell apart (the end of a recording, `serve`).
enum JSONRPCFallback {
    /// One line per such interaction of `cassette` when `matching` has a `jsonRPC` rule, e.g. `interaction #3 POST
    /// http://127.0.0.1/mcp says it is JSON-RPC but "method" is not a string: it is matched byte for byte`.
    static func notes(in cassette: Cassette, matching: [MatchRule]) -> [String] {
        guard matching.matchesJSONRPC else { return [] }
        return cassette.interactions.enumerated().compactMap { index, interaction in
            guard let body = interaction.request.body.inlineData, case .malformed(let reason) = JSONRPCBody.read(body) else { return nil }
            return "interaction #\(index) \(interaction.request.summary) says it is JSON-RPC but \(reason): it is matched byte for byte"
        }
    }
}
