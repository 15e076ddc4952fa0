import Foundation
import CassetteBenchSupport
import TapedeckCassette

/// What the `graphQL` match rule adds to a replayed request (issue H4: at most 2 µs for a 2 KB query), measured in
/// process on `CassettePlayer`, where matching happens:
///
///     tapedeck-bench-graphql PAIRS ROUNDS
///
/// A cassette of 50 GraphQL POSTs to one URL (2 KB documents, distinct operations and variables) is replayed in
/// order, ROUNDS times per block, by a player matching on method and URL (A) and on method, URL and `graphQL()`
/// (B), in interleaved pairs (AB, BA, …). Two live streams: the bytes as recorded (a client sending its requests
/// again), and the same operations laid out anew (other whitespace and member order, so every request is read
/// and normalized). Each pair prints the per-request times and B − A; the summary gives the median with min and max.
/// A third comparison, on the bytes as recorded, sets B against method, URL and `body` (C), which redacts and keeps
/// the live body as B does: B − C is what reading GraphQL adds over any rule that reads the body.
let (pairs, rounds) = PlayerTiming.pairsAndRounds(usage: "tapedeck-bench-graphql PAIRS ROUNDS")

let endpoint = "http://127.0.0.1:4000/graphql"
let operationCount = 50

/// A query of about 2 KB: a name, variables, nested selections with arguments, a fragment and comments.
func document(_ index: Int, layout compact: Bool) -> String {
    var fields: [String] = []
    for field in 0..<34 {
        fields.append("field\(field)_of_op\(index)(first: $first, after: \"cursor\(field)\") { id name __typename }")
    }
    let body = fields.joined(separator: compact ? " " : ",\n    # field\n    ")
    return compact
        ? "query Operation\(index)($id: ID!, $first: Int = 10) { node(id: $id) { ...Parts \(body) } } fragment Parts on Node { id }"
        : "query Operation\(index)($id: ID!, $first: Int = 10) {\n  node(id: $id) {\n    ...Parts\n    \(body)\n  }\n}\n\nfragment Parts on Node {\n  id\n}\n"
}

func body(_ index: Int, layout compact: Bool) -> Data {
    let variables = compact ? #"{"first":10,"id":"node-\#(index)"}"# : #"{ "id": "node-\#(index)", "first": 10.0 }"#
    let query = String(decoding: try! JSONSerialization.data(withJSONObject: [document(index, layout: compact)]), as: UTF8.self).dropFirst().dropLast()
    return compact
        ? Data(#"{"operationName":"Operation\#(index)","query":\#(query),"variables":\#(variables)}"#.utf8)
        : Data(#"{ "variables": \#(variables), "query": \#(query), "operationName": "Operation\#(index)" }"#.utf8)
}

let headers: HTTPHeaders = ["Content-Type": "application/json", "Accept": "application/graphql-response+json"]
let cassette = Cassette(interactions: (0..<operationCount).map { index in
    Interaction(request: .init(method: "POST", url: endpoint, headers: headers, body: CassetteBody(body(index, layout: true))),
                outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "application/json"],
                                         body: CassetteBody(Data(#"{"data":{"node":{"id":"node-\#(index)"}}}"#.utf8)))),
                recordedAt: Date(timeIntervalSince1970: 1_768_471_200))
})
let querySize = document(0, layout: true).utf8.count
let sameBytes = (0..<operationCount).map { Interaction.Request(method: "POST", url: endpoint, headers: headers, body: CassetteBody(body($0, layout: true))) }
let relaid = (0..<operationCount).map { Interaction.Request(method: "POST", url: endpoint, headers: headers, body: CassetteBody(body($0, layout: false))) }

func block(_ rules: [MatchRule], _ requests: [Interaction.Request]) -> Double {
    PlayerTiming.secondsPerRequest(cassette, rules: rules, requests: requests, rounds: rounds)
}

func summary(_ values: [Double]) -> String { PlayerTiming.summary(values) }

let plain: [MatchRule] = [.method, .url]
let graphQL: [MatchRule] = [.method, .url, .graphQL()]
// The bytes as recorded also replay under the `body` rule, which redacts and keeps the live body as `graphQL` does:
// graphQL − body is what reading GraphQL adds over any rule that reads the body.
let bodyRules: [MatchRule] = [.method, .url, .body]
var overBody: [Double] = []
for pair in 1...pairs {
    let c: Double, b: Double
    if pair % 2 == 1 {
        c = block(bodyRules, sameBytes)
        b = block(graphQL, sameBytes)
    } else {
        b = block(graphQL, sameBytes)
        c = block(bodyRules, sameBytes)
    }
    overBody.append((b - c) * 1e6)
    print(String(format: "as recorded pair %d: method+url+body %.3f µs, method+url+graphql %.3f µs, added %.3f µs", pair, c * 1e6, b * 1e6, (b - c) * 1e6))
}
print("as recorded, graphql over body: added µs per request \(summary(overBody))")
print("query \(querySize) bytes, body \(body(0, layout: true).count) bytes, \(operationCount) operations, \(rounds) rounds per block")
for (label, requests) in [("as recorded", sameBytes), ("laid out anew", relaid)] {
    PlayerTiming.comparePairs(label, cassette, a: ("method+url", plain), b: ("+graphql", graphQL), requests: requests, pairs: pairs, rounds: rounds)
}
