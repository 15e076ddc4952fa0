import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// `tapedeck inspect` on a cassette of GraphQL traffic lists each operation (POST JSON, an Apollo batch, a
/// persisted-query GET); other requests leave the column empty.
@Suite struct InspectGraphQLTests {
    static let endpoint = "http://api.example.com/graphql"

    static let cassette = Cassette(interactions: [
        exchange("POST", endpoint, #"{"operationName":"HeroName","query":"query HeroName($episode: Episode) {\n  hero(episode: $episode) { name }\n}","variables":{"episode":"JEDI"}}"#),
        exchange("POST", endpoint, #"[{"query":"mutation AddTodo($text: String!) { addTodo(text: $text) { id } }","variables":{"text":"milk"}},{"query":"{ todos { id } }"}]"#),
        exchange("GET", endpoint + "?operationName=Droid&variables=%7B%22id%22%3A2001%7D&extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38%22%7D%7D", ""),
        exchange("GET", "http://api.example.com/health", ""),
    ])

    static func exchange(_ method: String, _ url: String, _ body: String) -> Interaction {
        Interaction(request: .init(method: method, url: url, headers: body.isEmpty ? [:] : ["Content-Type": "application/json"],
                                   body: CassetteBody(Data(body.utf8))),
                    outcome: .response(.init(statusCode: 200, reasonPhrase: "OK", headers: ["Content-Type": "application/json"],
                                             body: CassetteBody(Data(#"{"data":{}}"#.utf8)))),
                    recordedAt: Date(timeIntervalSince1970: 1_768_471_200))
    }

    @Test func inspectListsTheOperations() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.cassette, "graphql.json", in: directory.url)
        let table = try await CLIRunner.run(["inspect", file.path])
        #expect(table.status == 0)
        try CLIRunner.expectGolden(CLIRunner.mask(table.stdout, folder: directory.url), "inspect-graphql.txt")
        let json = try await CLIRunner.run(["inspect", "--json", file.path])
        #expect(json.status == 0)
        try CLIRunner.expectGolden(json.stdout, "inspect-graphql.json")
    }
}
