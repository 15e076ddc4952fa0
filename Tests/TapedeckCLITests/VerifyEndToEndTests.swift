import Foundation
import Testing
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport

/// `tapedeck verify` against a stub server standing in for the provider.
@Suite struct VerifyEndToEndTests {
    static func provider(ageAsString: Bool) throws -> StubServer {
        let server = try StubServer()
        let age = ageAsString ? #""36""# : "37"
        server.route(.get, "/users/1", response: .json(Data(#"{"tags":["admin","ops"],"id":1,"name":"Ada","age":\#(age)}"#.utf8)))
        server.route(.post, "/users", response: .json(Data(#"{"id":3,"name":"Bob","age":null}"#.utf8), status: 201))
        server.route(.get, "/users", response: .json(Data(#"[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"},{"id":3,"name":"Cy"}]"#.utf8)))
        return server
    }

    @Test func passesAgainstAnUnchangedProvider() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.users, "users.json", in: folder)
        let server = try Self.provider(ageAsString: false)
        defer { server.stop() }
        let junit = folder.appendingPathComponent("junit.xml")
        let result = try await CLIRunner.run(["verify", file.path, "--against", server.baseURL.absoluteString, "--junit", junit.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try CLIRunner.expectGolden(CLIRunner.mask(result.stdout), "verify-pass.txt")
        #expect(try String(contentsOf: junit, encoding: .utf8).contains(#"failures="0""#))
    }

    @Test func failsReadablyWhenAFieldChangedType() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.users, "users.json", in: folder)
        let server = try Self.provider(ageAsString: true)
        defer { server.stop() }
        let junit = folder.appendingPathComponent("junit.xml")
        let result = try await CLIRunner.run(["verify", file.path, "--against", server.baseURL.absoluteString, "--junit", junit.path, "--field", "id"])
        #expect(result.status == 1)
        try CLIRunner.expectGolden(CLIRunner.mask(result.stdout), "verify-fail.txt")
        try CLIRunner.expectGolden(CLIRunner.mask(String(contentsOf: junit, encoding: .utf8)), "verify-fail-junit.xml")
    }

    @Test func reportsAProviderThatIsNotThere() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let file = try Fixtures.write(Fixtures.users, "users.json", in: folder)
        let result = try await CLIRunner.run(["verify", file.path, "--against", "http://127.0.0.1:1", "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("cannotConnectToHost"))
    }
}
