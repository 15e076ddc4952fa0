import Foundation

extension MatchRule {
    /// The rules a recording stores when nobody chose any and its requests put the operation in the body, with a line
    /// that says why; `nil` when method and URL tell its requests apart as they are.
    ///
    /// JSON-RPC 2.0 (MCP, Ethereum nodes): `method,url,jsonrpc`. GraphQL over HTTP: when every request is GraphQL,
    /// `method,host,path,graphql` (a GET's query string holds the document, so the URL is not compared whole); when
    /// others are mixed in, `method,url,graphql`, so that they keep being told apart by their query strings.
    static func recognised(in requests: [Interaction.Request], bodyBytes: (CassetteBody) -> Data?) -> (rules: [MatchRule], reason: String)? {
        var jsonRPC: [String] = []
        for request in requests where jsonRPC.count < 3 {
            if let summary = JSONRPCBody.read(bodyBytes(request.body) ?? Data()).summary {
                jsonRPC.append("\(request.method) \(request.url) (\(summary))")
            }
        }
        if !jsonRPC.isEmpty {
            let rules: [MatchRule] = [.method, .url, .jsonRPC()]
            return (rules, "recorded JSON-RPC requests (\(jsonRPC.joined(separator: ", "))): stored match rules \(rules.spelled) "
                    + "in the cassette, so replay tells calls apart by method and params, whatever their ids; record with --match "
                    + "(or set configuration.matching) to choose others")
        }
        var graphQL: [String] = []
        var others = 0
        for request in requests {
            if let operation = try? GraphQLRequest.read(request, body: bodyBytes(request.body) ?? Data()) {
                if graphQL.count < 3 { graphQL.append("\(request.method) \(request.url) (\(operation.summary))") }
            } else {
                others += 1
            }
        }
        guard !graphQL.isEmpty else { return nil }
        let rules: [MatchRule] = others == 0 ? [.method, .host, .path, .graphQL()] : [.method, .url, .graphQL()]
        return (rules, "recorded GraphQL requests (\(graphQL.joined(separator: ", "))): stored match rules \(rules.spelled) "
                + "in the cassette, so replay tells operations apart; record with --match (or set configuration.matching) to choose others")
    }
}
