import Foundation
import CassetteBenchSupport
import TapedeckCassette

/// What the `jsonRPC` match rule adds to a replayed request (issue J2: at most 2 µs for a 2 KB body), measured in
/// process on `CassettePlayer`, where matching happens:
///
///     tapedeck-bench-jsonrpc PAIRS ROUNDS
///
/// A cassette of 50 JSON-RPC calls to one URL (2 KB bodies, distinct methods and params) is replayed in order, ROUNDS
/// times per block, by a player matching on method and URL (A) and on method, URL and `jsonRPC()` (B), in
/// interleaved pairs (AB, BA, …). Three live streams: the bytes as recorded; the same calls numbered by another
/// client (other ids: what every new session sends); the calls laid out anew (other member order and whitespace, so
/// every body is read); and other ids on one player reused by every round, as `serve` keeps one for all its sessions
/// (the others make a fresh player per round, as each test opens its own). Each pair prints the per-request times and
/// B − A; the summary gives the median with min and max.
let (pairs, rounds) = PlayerTiming.pairsAndRounds(usage: "tapedeck-bench-jsonrpc PAIRS ROUNDS")

let endpoint = "http://127.0.0.1:4000/mcp"
let callCount = 50

/// About 2 KB: a tools/call with nested arguments.
func body(_ index: Int, id: Int, relaid: Bool) -> Data {
    var items: [String] = []
    for item in 0..<28 {
        items.append(relaid ? #"{ "weight": \#(item).5, "name": "item-\#(item)-of-\#(index)", "tags": ["a", "b"] }"#
                            : #"{"name":"item-\#(item)-of-\#(index)","weight":\#(item).5,"tags":["a","b"]}"#)
    }
    let list = items.joined(separator: relaid ? ", " : ",")
    return relaid
        ? Data(#"{ "params": { "arguments": { "items": [\#(list)], "city": "city-\#(index)" }, "name": "tool_\#(index)" }, "method": "tools/call", "id": \#(id), "jsonrpc": "2.0" }"#.utf8)
        : Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"tool_\#(index)","arguments":{"city":"city-\#(index)","items":[\#(list)]}}}"#.utf8)
}

let headers: HTTPHeaders = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]
let cassette = Cassette(interactions: (0..<callCount).map { index in
    Interaction(request: .init(method: "POST", url: endpoint, headers: headers, body: CassetteBody(body(index, id: index, relaid: false))),
                outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json"],
                                         body: CassetteBody(Data(#"{"jsonrpc":"2.0","id":\#(index),"result":{"content":[]}}"#.utf8)))),
                recordedAt: Date(timeIntervalSince1970: 1_768_471_200))
})
func requests(id offset: Int, relaid: Bool) -> [Interaction.Request] {
    (0..<callCount).map { Interaction.Request(method: "POST", url: endpoint, headers: headers, body: CassetteBody(body($0, id: $0 + offset, relaid: relaid))) }
}

let plain: [MatchRule] = [.method, .url]
let jsonRPC: [MatchRule] = [.method, .url, .jsonRPC()]
print("body \(body(0, id: 0, relaid: false).count) bytes, \(callCount) calls, \(rounds) rounds per block")
// TAPEDECK_BENCH_CASE names one case to run alone (for a profile).
let only = ProcessInfo.processInfo.environment["TAPEDECK_BENCH_CASE"]
for (label, live) in [("as recorded", requests(id: 0, relaid: false)), ("other ids", requests(id: 1000, relaid: false)),
                      ("laid out anew", requests(id: 1000, relaid: true))] where only == nil || only == label {
    PlayerTiming.comparePairs(label, cassette, a: ("method+url", plain), b: ("+jsonrpc", jsonRPC), requests: live, pairs: pairs, rounds: rounds)
}
// Other ids again, on one player that every round (session) reuses, as `serve` keeps one for all its sessions.
if only == nil || only == "other ids, one player" {
    PlayerTiming.comparePairs("other ids, one player", cassette, a: ("method+url", plain), b: ("+jsonrpc", jsonRPC),
                              requests: requests(id: 1000, relaid: false), pairs: pairs, rounds: rounds, onePlayer: true)
}
