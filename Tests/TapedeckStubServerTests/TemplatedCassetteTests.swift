import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// A response marked `"templated": true` in the cassette is filled from the live request, alike in process and when
/// a stub server serves the cassette.
@Suite struct TemplatedCassetteTests {
    static let body = #"{"id":"{{request.header.X-Request-Id}}","path":"{{path}}","page":"{{query.page}}"}"#

    private func writeCassette(_ file: URL, url: String, body: String = TemplatedCassetteTests.body) throws {
        let response = Interaction.Response(
            statusCode: 201, reasonPhrase: "Created",
            headers: ["Content-Type": "application/json", "Content-Length": String(body.utf8.count),
                      "X-Echo": "{{request.header.X-Request-Id}}"],
            body: CassetteBody(Data(body.utf8)), isTemplated: true)
        try CassetteFile.save(Cassette(interactions: [Interaction(
            request: .init(method: "POST", url: url), outcome: .response(response))]), to: file)
    }

    private func request(_ url: URL) -> HTTPRequest {
        HTTPRequest(method: .post, url: url, headers: ["X-Request-Id": "r-7"])
    }

    @Test func theFlagSurvivesTheFileAndOnlyWhenSet() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try writeCassette(directory.cassette(), url: "https://api.example.test/orders?page=3")
        #expect(try String(contentsOf: directory.cassette(), encoding: .utf8).contains(#""templated" : true"#)
                || String(contentsOf: directory.cassette(), encoding: .utf8).contains(#""templated": true"#))
        #expect(try CassetteFile.load(directory.cassette()).interactions.first?.response?.isTemplated == true)
        try CassetteFile.save(Cassette(interactions: [Interaction(
            request: .init(method: "GET", url: "https://api.example.test/x"), outcome: .response(.init(statusCode: 200)))]),
            to: directory.cassette())
        #expect(try !String(contentsOf: directory.cassette(), encoding: .utf8).contains("templated"))
    }

    @Test func inProcessAndServedReplaysFillTheTemplatesAlike() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await withStubServer { server in
            let url = server.url("/orders?page=3")
            try writeCassette(directory.cassette(), url: url.absoluteString)
            let inProcess = try openCassette(directory.cassette(), mode: .replay)
            let replayed = try await inProcess.send(request(url))
            server.stop()
            let expected = #"{"id":"r-7","path":"/orders","page":"3"}"#
            #expect(replayed.statusCode == 201)
            #expect(replayed.data == Data(expected.utf8))
            #expect(replayed.headers["X-Echo"] == "r-7")
            #expect(replayed.headers["Content-Length"] == String(expected.utf8.count))

            let serving = try StubServer()
            defer { serving.stop() }
            try serving.serve(cassette: directory.cassette(), origin: server.url("/"))
            let served = try await CurlTransport().send(request(serving.url("/orders?page=3")))
            #expect(served.statusCode == 201)
            #expect(served.data == Data(expected.utf8))
            #expect(served.headers["X-Echo"] == "r-7")
        }
    }

    @Test func aBadPlaceholderNamesTheInteraction() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try writeCassette(directory.cassette(), url: "https://api.example.test/orders", body: "{{request.cookie.x}}")
        let transport = try openCassette(directory.cassette(), mode: .replay)
        let error = await #expect(throws: CassetteError.self) {
            try await transport.send(request(URL(string: "https://api.example.test/orders")!))
        }
        #expect("\(error!)".contains("interactions[0].response") && "\(error!)".contains("request.cookie.x"))
    }
}
