import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport

/// Stub conditions on GraphQL operations: the Swift API, the JSON definitions, near misses, and a server answering
/// Apollo-shaped requests by operation.
@Suite struct GraphQLStubTests {
    static let json: HTTPHeaders = ["Content-Type": "application/json"]
    static let hero = #"{"operationName":"HeroName","query":"query HeroName($episode: Episode) {\n  hero(episode: $episode) {\n    name\n  }\n}","variables":{"episode":"JEDI","first":3}}"#

    @Test func conditionsOnOperationNameAndVariables() {
        let heroes: StubRegex = "Hero.*"
        let post = request(.post, "/graphql", headers: Self.json, body: Self.hero)
        #expect(RequestPattern(.post, "/graphql").graphQL(operation: "HeroName").matches(post))
        #expect(RequestPattern(.post, "/graphql").graphQL(operation: "HeroName", variables: ["episode": "JEDI"]).matches(post))
        #expect(!RequestPattern(.post, "/graphql").graphQL(operation: "HeroName", variables: ["episode": "JEDI"], exactVariables: true).matches(post))
        #expect(RequestPattern(.post, "/graphql").graphQL(variables: ["first": 3, "episode": "JEDI"], exactVariables: true).matches(post))
        #expect(RequestPattern().graphQL(operation: .matches(heroes)).matches(post))
        #expect(!RequestPattern().graphQL(operation: "Droid").matches(post))
        #expect(!RequestPattern().graphQL().matches(request(.post, "/graphql", headers: Self.json, body: #"{"query":"shoes"}"#)))

        // GET with the variables as JSON text, and the name taken from the document when operationName is absent.
        let get = request(.get, "/graphql", query: "query=query%20Droid(%24id%3A%20ID!)%20%7B%20droid(id%3A%20%24id)%20%7B%20name%20%7D%20%7D&variables=%7B%22id%22%3A%222001%22%7D")
        #expect(RequestPattern(.get, "/graphql").graphQL(operation: "Droid", variables: ["id": "2001"]).matches(get))
        #expect(RequestPattern().graphQL(operation: .absent).matches(request(.post, "/graphql", headers: Self.json, body: #"{"query":"{ a }"}"#)))
    }

    @Test func nearMissesNameTheOperationAndTheVariables() {
        let stubs = [
            Stub(name: "jedi", RequestPattern(.post, "/graphql").graphQL(operation: "HeroName", variables: ["episode": "EMPIRE"]), response: .text("")),
            Stub(name: "droid", RequestPattern(.post, "/graphql").graphQL(operation: "Droid"), response: .text("")),
        ]
        let report = StubRegistry.notFoundReport(for: request(.post, "/graphql", headers: Self.json, body: Self.hero), stubs: stubs, scenarioState: { _ in "" })
        #expect(report.contains(#"1. "jedi" POST /graphql with graphql operation equal to "HeroName", variables containing {"episode":"EMPIRE"}"#))
        #expect(report.contains(#"   - graphql: query HeroName variables: $.episode: expected EMPIRE, got JEDI"#), "\(report)")
        #expect(report.contains(#"2. "droid" POST /graphql with graphql operation equal to "Droid""#), "\(report)")
        #expect(report.contains(#"   - graphql: operation name expected equal to "Droid", got "HeroName" (query HeroName)"#), "\(report)")
    }

    @Test func definitionsDecodeRefuseAndRoundTrip() throws {
        let stub = try Stub.decode(Data(#"""
            {"request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "HeroName", "variables": {"episode": "JEDI"}}},
             "response": {"status": 200, "jsonBody": {"data": {"hero": {"name": "Luke"}}}}}
            """#.utf8))
        #expect(stub.matcher.graphQL == GraphQLPattern(operationName: "HeroName", variables: ["episode": "JEDI"]))
        #expect(try Stub.decode(JSONEncoder().encode(stub)).matcher == stub.matcher)
        let exact = try Stub.decode(Data(#"{"request": {"graphql": {"operationName": {"contains": "Hero"}, "variables": {}, "exactVariables": true}}, "response": {}}"#.utf8))
        #expect(exact.matcher.graphQL?.exactVariables == true)
        #expect(throws: (any Error).self) {
            try Stub.decode(Data(#"{"request": {"graphql": {"operation": "HeroName"}}, "response": {}}"#.utf8))
        }
        let notObject = #expect(throws: (any Error).self) {
            try Stub.decode(Data(#"{"request": {"graphql": {"variables": [1]}}, "response": {}}"#.utf8))
        }
        #expect("\(notObject.map { "\($0)" } ?? "")".contains("GraphQL variables must be a JSON object"))
    }
}

extension OnLoopback {
    @Suite struct GraphQLStubServerTests {
        @Test func theServerAnswersEachOperationWithItsStub() async throws {
            try await withStubServer { server in
                server.add(Stub(RequestPattern(.post, "/graphql").graphQL(operation: "HeroName", variables: ["episode": "JEDI"]),
                                response: .json(["data": ["hero": ["name": "Luke"]]])))
                server.add(Stub(RequestPattern(.post, "/graphql").graphQL(operation: "HeroName", variables: ["episode": "EMPIRE"]),
                                response: .json(["data": ["hero": ["name": "Han"]]])))
                let transport = CurlTransport()
                var post = HTTPRequest(method: .post, url: server.url("/graphql"))
                post.headers["Content-Type"] = "application/json"
                post.body = .data(Data(Self.body("EMPIRE").utf8))
                #expect(try await transport.send(post).text == #"{"data":{"hero":{"name":"Han"}}}"#)
                post.body = .data(Data(Self.body("JEDI").utf8))
                #expect(try await transport.send(post).text == #"{"data":{"hero":{"name":"Luke"}}}"#)
                post.body = .data(Data(Self.body("NEWHOPE").utf8))
                let miss = try await transport.send(post)
                #expect(miss.statusCode == 404)
                #expect(miss.text.contains("graphql: query HeroName variables"), "\(miss.text)")
            }
        }

        static func body(_ episode: String) -> String {
            #"{"extensions":{"clientLibrary":{"name":"apollo-ios","version":"1.15.1"}},"operationName":"HeroName","query":"query HeroName($episode: Episode) { hero(episode: $episode) { __typename name } }","variables":{"episode":"\#(episode)"}}"#
        }
    }
}
