import Foundation
import Testing
import TapedeckCassette
import TapedeckCore

/// The `graphQL` match rule on requests shaped as real clients send them: Apollo iOS (sorted keys, its generated
/// query layout, automatic persisted queries), Apollo Client for the web (GET with `extensions`, batches), and
/// `application/graphql` bodies.
@Suite struct GraphQLMatchingTests {
    static let endpoint = "http://127.0.0.1:4000/graphql"
    static let json: HTTPHeaders = ["Content-Type": "application/json"]
    static let rules: [MatchRule] = [.method, .host, .path, .graphQL()]
    static let heroQuery = "query HeroName($episode: Episode) {\n  hero(episode: $episode) {\n    __typename\n    name\n  }\n}"
    static let heroHash = "f6e76545cd03aa21368d9969cb39447f6e836a16717823281803778e7805d671"

    /// An Apollo iOS POST body: `JSONSerialization` with sorted keys, so `\n` escapes and `\/`-free text.
    static func appleBody(_ name: String, query: String?, variables: [String: Any], hash: String? = nil) -> String {
        var object: [String: Any] = ["operationName": name, "variables": variables]
        if let query { object["query"] = query }
        if let hash { object["extensions"] = ["persistedQuery": ["sha256Hash": hash, "version": 1]] }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// Apollo Client's GET: each parameter through `encodeURIComponent`.
    static func getURL(_ parameters: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
        return endpoint + "?" + parameters.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&")
    }

    @Test func apolloIOSOperationsReplayByOperationAndVariablesInAnyOrder() {
        let cassette = Cassette(interactions: [
            interaction("POST", Self.endpoint, headers: Self.json,
                        body: Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "JEDI"]), responseBody: "luke"),
            interaction("POST", Self.endpoint, headers: Self.json,
                        body: Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "EMPIRE"]), responseBody: "han"),
            interaction("POST", Self.endpoint, headers: Self.json,
                        body: Self.appleBody("Droid", query: "query Droid($id: ID!) { droid(id: $id) { name } }", variables: ["id": 2001]),
                        responseBody: "r2"),
        ])
        var player = CassettePlayer(cassette: cassette, matching: Self.rules)
        // The same operations as another client lays them out: one line, commas, a comment, members reordered.
        let droid = #"{"variables":{"id":2001.0},"query":"query Droid($id: ID!) {droid(id: $id) {name}} # generated","operationName":"Droid"}"#
        #expect(playedBody(player.play(live("POST", Self.endpoint, headers: Self.json, body: droid))) == "r2")
        let empire = #"{"query":"query HeroName($episode: Episode) { hero(episode: $episode) { __typename, name } }","variables":{"episode":"EMPIRE"},"operationName":"HeroName"}"#
        #expect(playedBody(player.play(live("POST", Self.endpoint, headers: Self.json, body: empire))) == "han")
        #expect(playedBody(player.play(live("POST", Self.endpoint, headers: Self.json,
                                            body: Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "JEDI"])))) == "luke")

        // Method and URL alone would have replayed the first recording for every operation.
        var byURL = CassettePlayer(cassette: cassette)
        #expect(playedBody(byURL.play(live("POST", Self.endpoint, headers: Self.json, body: droid))) == "luke")
    }

    @Test func nearMissNamesTheOperationAndTheVariablesThatDiffer() throws {
        let recorded = Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "JEDI", "first": 10, "filter": ["side": "light", "tags": ["a"]]])
        var player = CassettePlayer(cassette: Cassette(interactions: [
            interaction("POST", Self.endpoint, headers: Self.json, body: recorded),
            interaction("POST", Self.endpoint, headers: Self.json, body: Self.appleBody("Droid", query: "query Droid { droid { name } }", variables: [:])),
        ]), name: "starwars.json", matching: Self.rules)
        let sent = Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "EMPIRE", "filter": ["side": "light", "tags": ["b"]], "after": "abc"])
        guard case .failure(.unmatchedRequest(let report)) = player.play(live("POST", Self.endpoint, headers: Self.json, body: sent)) else {
            Issue.record("expected a miss")
            return
        }
        #expect(report.request == "POST \(Self.endpoint) (query HeroName)")
        #expect(report.candidates.map(\.index) == [0, 1])
        #expect(report.candidates[0].request == "POST \(Self.endpoint) (query HeroName)")
        #expect(report.candidates[0].differences == [
            #"graphql query HeroName: variables episode: recorded "JEDI", request "EMPIRE", filter.tags.0: recorded "a", request "b", first: recorded 10, request absent, after: recorded absent, request "abc""#,
        ])
        #expect(report.candidates[1].differences == ["graphql operation: recorded query Droid, request query HeroName"])
        #expect(report.rules == ["method", "host", "path", "graphql"])
    }

    @Test func queryTextDifferencesPointAtTheFirstChangedToken() {
        var player = CassettePlayer(cassette: Cassette(interactions: [
            interaction("POST", Self.endpoint, headers: Self.json, body: Self.appleBody("HeroName", query: Self.heroQuery, variables: [:])),
        ]), matching: Self.rules)
        let changed = Self.heroQuery.replacingOccurrences(of: "    name\n", with: "    name\n    height\n")
        guard case .failure(.unmatchedRequest(let report)) = player.play(live("POST", Self.endpoint, headers: Self.json,
                                                                                 body: Self.appleBody("HeroName", query: changed, variables: [:]))) else {
            Issue.record("expected a miss")
            return
        }
        #expect(report.candidates[0].differences == [
            #"graphql query HeroName: query text differs (whitespace, commas and comments aside) at character 72: recorded "…ypename name}}", request "…ypename name height}}""#,
        ])
    }

    @Test func automaticPersistedQueriesMatchOnTheHashAndOnWhetherTheTextIsSent() {
        // Apollo Client's APQ: a GET with the hash only; on PersistedQueryNotFound, a POST with hash and text.
        let hashOnly = Self.getURL([("operationName", "HeroName"), ("variables", #"{"episode":"JEDI"}"#),
                                    ("extensions", #"{"persistedQuery":{"version":1,"sha256Hash":"\#(Self.heroHash)"}}"#)])
        let withText = Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "JEDI"], hash: Self.heroHash)
        let cassette = Cassette(interactions: [
            interaction("GET", hashOnly, responseBody: "PersistedQueryNotFound"),
            interaction("POST", Self.endpoint, headers: Self.json, body: withText, responseBody: "luke"),
        ])
        var player = CassettePlayer(cassette: cassette, matching: Self.rules)
        // Same hash, parameters in another order, spaces in the JSON.
        let again = Self.getURL([("extensions", #"{ "persistedQuery": { "sha256Hash": "\#(Self.heroHash)", "version": 1 } }"#),
                                 ("variables", #"{ "episode": "JEDI" }"#), ("operationName", "HeroName")])
        #expect(playedBody(player.play(live("GET", again))) == "PersistedQueryNotFound")
        #expect(playedBody(player.play(live("POST", Self.endpoint, headers: Self.json, body: withText))) == "luke")

        // Without the method rule, the hash alone finds the hash-only recording and the text the other one.
        let hashOnlyPost = Self.appleBody("HeroName", query: nil, variables: ["episode": "JEDI"], hash: Self.heroHash)
        var anyMethod = CassettePlayer(cassette: cassette, matching: [.host, .path, .graphQL()])
        #expect(playedBody(anyMethod.play(live("POST", Self.endpoint, headers: Self.json, body: hashOnlyPost))) == "PersistedQueryNotFound")
        #expect(playedBody(anyMethod.play(live("POST", Self.endpoint, headers: Self.json, body: withText))) == "luke")
        var hashOnlyRecording = CassettePlayer(cassette: Cassette(interactions: [cassette.interactions[0]]), matching: [.host, .path, .graphQL()])
        guard case .failure(.unmatchedRequest(let report)) = hashOnlyRecording.play(live("POST", Self.endpoint, headers: Self.json, body: withText)) else {
            Issue.record("expected a miss")
            return
        }
        #expect(report.candidates[0].differences
                == ["graphql persisted HeroName (sha256 f6e76545…): recorded sends only the persisted-query hash, request sends the query text"])

        let otherHash = Self.appleBody("HeroName", query: nil, variables: ["episode": "JEDI"], hash: String(repeating: "0", count: 64))
        var fresh = CassettePlayer(cassette: cassette, matching: Self.rules)
        guard case .failure(.unmatchedRequest(let miss)) = fresh.play(live("POST", Self.endpoint, headers: Self.json, body: otherHash)) else {
            Issue.record("expected a miss")
            return
        }
        #expect(miss.candidates[0].differences.first?.contains("persisted-query hash: recorded \(Self.heroHash), request 0000") == true)
    }

    @Test func getRequestsCarryTheDocumentAndJSONParameters() {
        let recorded = Self.getURL([("query", "query Search($q: String!) { search(q: $q) { id } }"), ("operationName", "Search"),
                                    ("variables", #"{"q":"ada","page":{"size":10,"after":null}}"#)])
        var player = CassettePlayer(cassette: Cassette(interactions: [interaction("GET", recorded, responseBody: "found")]),
                                    matching: Self.rules)
        // `+` for spaces (form encoding), members reordered, a number spelled differently, comments in the document.
        let sent = Self.endpoint + "?operationName=Search&variables=%7B%22page%22%3A%7B%22after%22%3Anull%2C%22size%22%3A1e1%7D%2C%22q%22%3A%22ada%22%7D"
            + "&query=%23+search%0Aquery+Search(%24q%3A+String!)+%7B+search(q%3A+%24q)+%7B+id+%7D+%7D"
        #expect(playedBody(player.play(live("GET", sent))) == "found")
    }

    @Test func apolloBatchesMatchMemberByMember() {
        let batch = "[" + Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "JEDI"]) + ","
            + Self.appleBody("Droid", query: "query Droid { droid { name } }", variables: [:]) + "]"
        var player = CassettePlayer(cassette: Cassette(interactions: [
            interaction("POST", Self.endpoint, headers: Self.json, body: batch, responseBody: "both"),
        ]), matching: Self.rules)
        let reordered = "[" + #"{"query":"query HeroName($episode:Episode){hero(episode:$episode){__typename name}}","variables":{"episode":"JEDI"}}"#
            + "," + #"{"query":"query Droid{droid{name}}"}"# + "]"
        #expect(playedBody(player.play(live("POST", Self.endpoint, headers: Self.json, body: reordered))) == "both")

        var fresh = CassettePlayer(cassette: player.cassette, matching: Self.rules)
        let single = Self.appleBody("Droid", query: "query Droid { droid { name } }", variables: [:])
        guard case .failure(.unmatchedRequest(let report)) = fresh.play(live("POST", Self.endpoint, headers: Self.json, body: single)) else {
            Issue.record("expected a miss")
            return
        }
        #expect(report.candidates[0].differences
                == ["graphql: recorded batch of 2: query HeroName, query Droid, request query Droid"])
        let swapped = "[" + single + "," + Self.appleBody("HeroName", query: Self.heroQuery, variables: ["episode": "JEDI"]) + "]"
        guard case .failure(.unmatchedRequest(let second)) = fresh.play(live("POST", Self.endpoint, headers: Self.json, body: swapped)) else {
            Issue.record("expected a miss")
            return
        }
        #expect(second.candidates[0].differences == ["graphql batch member 0: operation: recorded query HeroName, request query Droid"])
    }

    @Test func graphQLBodiesAndOtherRequestsUnderTheRule() throws {
        // `application/graphql`: the body is the document, the variables are in the query string.
        let raw: HTTPHeaders = ["Content-Type": "application/graphql; charset=utf-8"]
        var player = CassettePlayer(cassette: Cassette(interactions: [
            interaction("POST", Self.endpoint + "?variables=%7B%22id%22%3A1%7D", headers: raw, body: "{ user(id: 1) { name } }", responseBody: "raw"),
            interaction("POST", "http://127.0.0.1:4000/search", headers: Self.json, body: #"{"query":"shoes"}"#, responseBody: "rest"),
        ]), matching: Self.rules)
        #expect(playedBody(player.play(live("POST", Self.endpoint + "?variables=%7B%20%22id%22%3A%201%20%7D", headers: raw,
                                            body: "{\n  user(id: 1) {\n    name\n  }\n}"))) == "raw")
        // A search API's `{"query": "shoes"}` is not GraphQL: compared byte for byte.
        #expect(playedBody(player.play(live("POST", "http://127.0.0.1:4000/search", headers: Self.json, body: #"{"query": "shoes"}"#))) == nil)
        #expect(playedBody(player.play(live("POST", "http://127.0.0.1:4000/search", headers: Self.json, body: #"{"query":"shoes"}"#))) == "rest")

        // Malformed GraphQL is named as such.
        var strict = CassettePlayer(cassette: Cassette(interactions: [
            interaction("POST", Self.endpoint, headers: Self.json, body: Self.appleBody("HeroName", query: Self.heroQuery, variables: [:])),
        ]), matching: Self.rules)
        guard case .failure(.unmatchedRequest(let report)) = strict.play(live("POST", Self.endpoint, headers: Self.json,
                                                                                 body: #"{"query":"query Q { a(s: \"open) }","variables":{}}"#)) else {
            Issue.record("expected a miss")
            return
        }
        #expect(report.candidates[0].differences
                == [#"graphql: request: malformed GraphQL request: body: GraphQL syntax error at line 1, column 24: unterminated string"#])
        func error(_ body: String) -> String? {
            do { _ = try GraphQLRequest.read(method: "POST", query: nil, contentType: "application/json", body: Data(body.utf8)) } catch {
                return error.reason
            }
            return nil
        }
        #expect(error(#"{"query":"{ a }","variables":[1]}"#) == #"body: "variables" is not a JSON object"#)
        #expect(error(#"[{"query":"{ a }"},{"id":1}]"#) == #"batch member 1 is not a GraphQL operation (no "query" or persisted-query hash)"#)
        #expect(error(#"{"query":"{ a }","operationName":7}"#) == #"body: "operationName" is not a string"#)
    }

    @Test func ignoredVariablesAreNotCompared() {
        let recorded = Self.appleBody("AddTodo", query: "mutation AddTodo($input: In!) { addTodo(input: $input) { id } }",
                                      variables: ["input": ["text": "milk", "clientMutationId": "1"], "requestId": "a"])
        let sent = Self.appleBody("AddTodo", query: "mutation AddTodo($input: In!) { addTodo(input: $input) { id } }",
                                  variables: ["input": ["text": "milk", "clientMutationId": "2"]])
        var player = CassettePlayer(cassette: Cassette(interactions: [interaction("POST", Self.endpoint, headers: Self.json, body: recorded, responseBody: "ok")]),
                                    matching: [.method, .path, .graphQL(ignoringVariables: ["input.clientMutationId", "requestId"])])
        #expect(playedBody(player.play(live("POST", Self.endpoint, headers: Self.json, body: sent))) == "ok")
        #expect(MatchRule.graphQL(ignoringVariables: ["b", "a"]).description == "graphql(ignoring variables: a, b)")
    }

    @Test func secretsInVariablesAreRedactedInBodiesAndGETParametersAndStillMatch() throws {
        let redaction = Redaction(filters: [.jsonPath("variables.input.cardNumber")])
        let login = Self.appleBody("Login", query: "mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }",
                                   variables: ["email": "ada@example.com", "password": "hunter2-secret"])
        var post = Interaction.Request(method: "POST", url: Self.endpoint, headers: Self.json, body: CassetteBody(Data(login.utf8)))
        redaction.redact(&post)
        let postText = String(decoding: post.body.inlineData ?? Data(), as: UTF8.self)
        #expect(!postText.contains("hunter2-secret"))
        #expect(postText.contains("ada@example.com"))

        let pay = Self.getURL([("query", "query Pay($input: PayInput!) { pay(input: $input) { ok } }"),
                               ("variables", #"{"input":{"cardNumber":"4111111111111111","amount":5},"apiToken":"tok_live_abcdefghijkl"}"#)])
        var get = Interaction.Request(method: "GET", url: pay)
        redaction.redact(&get)
        #expect(!get.url.contains("4111111111111111"))
        #expect(!get.url.contains("tok_live_abcdefghijkl"))
        let operation = try #require(try GraphQLRequest.read(get, body: Data()))
        #expect(operation.operations[0].variables["input"]?["amount"] == .number("5"))
        #expect(operation.operations[0].variables["input"]?["cardNumber"]?.stringValue.map(Redaction.isRedacted) == true)

        // Recorded redacted, replayed from the live (unredacted) requests.
        let cassette = Cassette(interactions: [
            Interaction(request: post, outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("in".utf8)))), recordedAt: Date()),
            Interaction(request: get, outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("paid".utf8)))), recordedAt: Date()),
        ])
        var player = CassettePlayer(cassette: cassette, matching: Self.rules, redaction: redaction)
        #expect(playedBody(player.play(live("GET", pay))) == "paid")
        #expect(playedBody(player.play(live("POST", Self.endpoint, headers: Self.json, body: login))) == "in")
    }
}
