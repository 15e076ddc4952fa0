import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Recording over the live transport prepares each request half while the request is on the wire and commits on
/// the transport's thread: secrets must still never reach the journal or the cassette, whichever half holds them.
@Suite struct LiveRecordingRedactionTests {
    @Test func secretsOfEitherHalfNeverReachTheJournalOrTheCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        // The server echoes the request (its bearer token included) and sets a cookie to the value of the request's
        // `resume` field, which is not secret by name: only the response makes it a secret.
        server.route(.post, "/session/{n}") { request in
            let resume = (try? JSONSerialization.jsonObject(with: request.body) as? [String: String])?["resume"] ?? ""
            let echo = #"{"seen":"\#(request.headers["Authorization"] ?? "")","body":\#(String(decoding: request.body, as: UTF8.self))}"#
            return StubResponse(status: 200, headers: ["Content-Type": "application/json", "Set-Cookie": "sid=\(resume); Path=/"],
                                body: .data(Data(echo.utf8)))
        }
        let secrets = (0..<4).flatMap { ["bearer-tok-\($0)abc", "pw-hunter-\($0)x", "resume-cookie-\($0)z"] }
        let requests = (0..<4).map { index in
            HTTPRequest(method: .post, url: server.url("/session/\(index)"),
                        headers: ["Authorization": "Bearer bearer-tok-\(index)abc", "Content-Type": "application/json"],
                        body: .data(Data(#"{"password":"pw-hunter-\#(index)x","resume":"resume-cookie-\#(index)z"}"#.utf8)))
        }
        let cassette = directory.cassette("session.json")
        let recorder = try openCassette(cassette, mode: .all, upstream: CurlTransport())
        for request in requests { _ = try await recorder.send(request) }

        func expectNoSecret(in url: URL) throws {
            let bytes = try Data(contentsOf: url)
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(url.lastPathComponent) holds \(secret)") }
        }
        let journal = URL(fileURLWithPath: cassette.path + ".journal")
        #expect(try Data(contentsOf: journal).count(where: { $0 == 0x0A }) == requests.count)
        try expectNoSecret(in: journal)
        try recorder.finish()
        try expectNoSecret(in: cassette)

        let saved = try CassetteFile.load(cassette)
        let recorded = saved.interactions
        let salt = try #require(saved.redactionSalt)
        #expect(recorded.count == requests.count)
        for (index, interaction) in recorded.enumerated() {
            // Each secret has one stand-in: the cookie the response sets is the `resume` value the request sent.
            let password = StandIn.make(for: "pw-hunter-\(index)x", salt: salt), resume = StandIn.make(for: "resume-cookie-\(index)z", salt: salt)
            #expect(interaction.request.body.inlineData == Data(#"{"password":"\#(password)","resume":"\#(resume)"}"#.utf8))
            #expect(interaction.request.headers["Authorization"] == "Bearer " + StandIn.make(for: "bearer-tok-\(index)abc", salt: salt))
            #expect(interaction.response?.headers["Set-Cookie"] == "sid=\(resume); Path=/")
            #expect(interaction.request.url.hasSuffix("/session/\(index)"))
        }
        // The redacted requests still replay.
        let player = try openCassette(cassette, mode: .replay)
        for request in requests { #expect(try await player.send(request).statusCode == 200) }
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
    }
}
