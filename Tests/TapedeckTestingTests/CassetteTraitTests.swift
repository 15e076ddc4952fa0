import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

private let profileURL = URL(string: "https://api.example.test/v1/me")!

private func profileRequest(_ url: URL = profileURL) -> HTTPRequest {
    HTTPRequest(url: url, headers: ["Accept": "application/json"])
}

@Suite struct CassetteTraitTests {
    @Test(.cassette())
    func replaysTheCommittedCassette() async throws {
        let response = try await TapedeckTest.transport.send(profileRequest())
        #expect(response.statusCode == 200)
        #expect(response.data == Data(#"{"id":7,"name":"Ada"}"#.utf8))
    }

    @Test func theTraitDerivesItsFileFromTheSuiteAndTest() throws {
        let test = try #require(Test.current)
        let url = CassetteTrait.cassette().cassetteURL(for: test, testCase: Test.Case.current)
        #expect(url.path.hasSuffix("Cassettes/TapedeckTestingTests/CassetteTraitTests/theTraitDerivesItsFileFromTheSuiteAndTest.json"))
    }

    @Test(arguments: [404, 500])
    func parameterizedCasesGetACassetteEach(code: Int) throws {
        let test = try #require(Test.current)
        let url = CassetteTrait.cassette().cassetteURL(for: test, testCase: Test.Case.current)
        #expect(url.lastPathComponent == "parameterizedCasesGetACassetteEach--\(code).json")
    }

    @Test func anUnmatchedRequestIsAnIssueNamingTheCassetteAndTheNearestRequest() async throws {
        let test = try #require(Test.current)
        let trait = CassetteTrait.cassette("replaysTheCommittedCassette")
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                // The code under test swallows the error; the trait still reports it.
                _ = try? await TapedeckTest.transport.send(profileRequest(URL(string: "https://api.example.test/v1/mee")!))
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            return text.contains("replaysTheCommittedCassette.json") && text.contains("/v1/mee")
                && text.contains("https://api.example.test/v1/me") && text.contains(RecordMode.environmentVariable)
                && issue.sourceLocation == test.sourceLocation
        }
    }

    @Test func aMissingCassetteInReplayIsAnIssueSayingHowToRecordIt() async throws {
        let test = try #require(Test.current)
        let trait = CassetteTrait.cassette("does-not-exist", mode: .replay)
        let ran = Locked(false)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.value = true }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("does-not-exist.json") && text.contains("TAPEDECK_RECORD_MODE=once")
        }
        #expect(!ran.value)
    }

    @Test func withoutACassetteTheTransportRefusesInsteadOfReachingTheNetwork() async throws {
        await #expect(throws: URLError.self) {
            _ = try await TapedeckTest.transport.send(profileRequest())
        }
    }

    @Test(.stubServer { server in server.route(.get, "/hello", response: .text("world")) })
    func theStubServerTraitServesTheTest() async throws {
        let server = try #require(TapedeckTest.currentStubServer)
        let response = try await TapedeckTest.transport.send(HTTPRequest(url: server.url("/hello")))
        #expect(response.data == Data("world".utf8))
        #expect(server.journal.entries.map(\.path) == ["/hello"])
    }
}
