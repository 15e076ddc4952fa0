import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCurl
import TapedeckSession
import TapedeckStubServer
import TapedeckTestSupport

/// Redaction with stand-ins: a secret becomes the same `REDACTED-…` everywhere in its cassette, cookies and
/// `Authorization` keep their structure, and replay gives the client the state the live run had.
@Suite struct StandInTests {
    @Test func sipHashMatchesTheReferenceVectors() {
        // From the SipHash paper's appendix and its reference implementation's vectors (key 00…0f).
        let key: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0F0E_0D0C_0B0A_0908)
        let fifteen = [UInt8](0..<15)
        #expect(fifteen.withUnsafeBytes { SipHash24.hash($0, key: key) } == 0xA129_CA61_49BE_45E5)
        #expect([UInt8]().withUnsafeBytes { SipHash24.hash($0, key: key) } == 0x726F_DB47_DD0E_0E31)
        let eight = [UInt8](0..<8)
        #expect(eight.withUnsafeBytes { SipHash24.hash($0, key: key) } == 0x93F5_F579_9A93_2462)
    }

    @Test func aStandInIsStableKeyedAndChecked() throws {
        let salt = try #require(RedactionSalt("000102030405060708090a0b0c0d0e0f"))
        let standIn = StandIn.make(for: "eyJhbGciOiJIUzI1NiJ9.secret", salt: salt)
        #expect(standIn == StandIn.make(for: "eyJhbGciOiJIUzI1NiJ9.secret", salt: salt))
        #expect(standIn.hasPrefix("REDACTED-") && standIn.count == 21)
        #expect(StandIn.isStandIn(standIn) && StandIn.verifies(standIn, salt: salt))
        #expect(standIn != StandIn.make(for: "eyJhbGciOiJIUzI1NiJ9.secrets", salt: salt))
        #expect(standIn != StandIn.make(for: "eyJhbGciOiJIUzI1NiJ9.secret", salt: .random()))
        #expect(RedactionSalt(salt.description) == salt)
        // Every one-character edit of the code is caught by the check, but for about one in 4,096.
        var caught = 0, edits = 0
        for position in standIn.indices.dropFirst(StandIn.prefix.count) {
            for replacement in "0123456789abcdefghjkmnpqrstvwxyz" where replacement != standIn[position] {
                var edited = standIn
                edited.replaceSubrange(position...position, with: String(replacement))
                edits += 1
                if !StandIn.verifies(edited, salt: salt) { caught += 1 }
            }
        }
        #expect(edits - caught <= 2, "\(edits - caught) of \(edits) edits passed the check")
        #expect(StandIn.all(in: "a=\(standIn); b=\(standIn)x; c=[REDACTED]") == [standIn])
        #expect(StandIn.blurred("token=\(standIn)&x=1") == "token=[REDACTED]&x=1")
    }

    /// A login sets a session cookie and answers a token; the client sends both back. Recorded live, then replayed
    /// with the server gone: the cookie store holds the same cookie (its stand-in), the later requests carry it, and
    /// a match rule on `Cookie` and `Authorization` matches them.
    @Test func cookiesAndEchoedTokensKeepTheirStateInReplay() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        let sessionID = "s3ss10n-\(UUID().uuidString)", token = "tok-\(UUID().uuidString)"
        server.route(.post, "/login") { _ in
            StubResponse(status: 200, headers: ["Content-Type": "application/json",
                                                "Set-Cookie": "sid=\(sessionID); Path=/; HttpOnly; Max-Age=3600"],
                         body: .data(Data(#"{"token":"\#(token)","user":"ada"}"#.utf8)))
        }
        server.route(.get, "/me") { request in
            let ok = request.headers["Cookie"] == "sid=\(sessionID)" && request.headers["Authorization"] == "Bearer \(token)"
            return ok ? .json(Data(#"{"user":"ada"}"#.utf8)) : StubResponse(status: 401)
        }
        var configuration = CassetteConfiguration()
        configuration.matching = MatchRule.defaults + [.headers("Cookie", "Authorization")]

        struct Trail: Equatable {
            var statuses: [Int] = []
            var cookies: [String?] = []
            var sentAuthorization: [String?] = []
        }
        func run(over transport: any HTTPTransport, expectingToken expected: String?) async throws -> Trail {
            let store = CookieStore()
            let pipeline = SessionPipeline(cookies: store)
            var trail = Trail()
            let login = try await pipeline.send(HTTPRequest(method: .post, url: server.url("/login")), over: transport, onEvent: nil)
            trail.statuses.append(login.statusCode)
            trail.cookies.append(store.cookieHeader(for: server.url("/me")))
            let answered = try JSONSerialization.jsonObject(with: login.data ?? Data()) as? [String: String]
            let received = try #require(answered?["token"])
            if let expected { #expect(received == expected) }
            var me = HTTPRequest(url: server.url("/me"))
            me.headers["Authorization"] = "Bearer \(received)"
            trail.sentAuthorization.append(me.headers["Authorization"])
            let answer = try await pipeline.send(me, over: transport, onEvent: nil)
            trail.statuses.append(answer.statusCode)
            trail.cookies.append(store.cookieHeader(for: server.url("/me")))
            return trail
        }

        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport(), configuration: configuration)
        let live = try await run(over: recorder, expectingToken: token)
        try recorder.finish()
        server.stop()
        #expect(live.statuses == [200, 200])

        let text = try String(contentsOf: directory.cassette(), encoding: .utf8)
        #expect(!text.contains(sessionID) && !text.contains(token), "no secret on disk")
        let saved = try CassetteFile.load(directory.cassette())
        let salt = try #require(saved.redactionSalt)
        let cookieStandIn = StandIn.make(for: sessionID, salt: salt), tokenStandIn = StandIn.make(for: token, salt: salt)
        #expect(saved.interactions[0].response?.headers["Set-Cookie"] == "sid=\(cookieStandIn); Path=/; HttpOnly; Max-Age=3600")
        #expect(saved.interactions[1].request.headers["Cookie"] == "sid=\(cookieStandIn)")
        #expect(saved.interactions[1].request.headers["Authorization"] == "Bearer \(tokenStandIn)")

        let player = try openCassette(directory.cassette(), mode: .replay, configuration: configuration)
        let replayed = try await run(over: player, expectingToken: tokenStandIn)
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
        #expect(replayed.statuses == live.statuses)
        #expect(replayed.cookies == [.some("sid=\(cookieStandIn)"), .some("sid=\(cookieStandIn)")])
        #expect(live.cookies == [.some("sid=\(sessionID)"), .some("sid=\(sessionID)")])
    }

    @Test func aStandInEditedByHandOrWithoutItsSaltIsRefusedNamingThePlace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let salt = RedactionSalt.random()
        let standIn = StandIn.make(for: "a-session-value", salt: salt)
        let interaction = Interaction(request: .init(method: "GET", url: "https://api.test/me", headers: ["Cookie": "sid=\(standIn)"]),
                                      outcome: .response(.init(statusCode: 200)))
        let good = Cassette(interactions: [interaction, interaction], redactionSalt: salt)
        let file = directory.cassette()
        try CassetteFile.save(good, to: file)
        #expect(try CassetteFile.load(file) == good)
        let text = try String(contentsOf: file, encoding: .utf8)

        var edited = standIn
        let last = edited.index(before: edited.endIndex)
        edited.replaceSubrange(last...last, with: edited[last] == "0" ? "1" : "0")
        var tampered = text
        tampered.replaceSubrange(try #require(text.range(of: standIn, options: .backwards)), with: edited)
        #expect(tampered != text)
        try Data(tampered.utf8).write(to: file)
        let editedError = #expect(throws: CassetteError.self) { try CassetteFile.load(file) }
        let message = "\(editedError.map { $0 as Any } ?? "")"
        #expect(message.contains("interactions[1].request.headers[0]") && message.contains("header Cookie") && message.contains(edited), "\(message)")
        #expect(try Data(contentsOf: file) == Data(tampered.utf8), "nothing is rewritten")

        let saltless = text.replacingOccurrences(of: "\"redaction\"", with: "\"unused\"")
        try Data(saltless.utf8).write(to: file)
        let saltError = #expect(throws: CassetteError.self) { try CassetteFile.load(file) }
        let saltMessage = "\(saltError.map { $0 as Any } ?? "")"
        #expect(saltMessage.contains("interactions[0].request.headers[0]") && saltMessage.contains("no redaction salt"), "\(saltMessage)")
    }

    @Test func placeholderCassettesKeepTheirPlaceholdersAndRedactUpgradesThem() throws {
        var cassette = Cassette(interactions: [
            Interaction(request: .init(method: "GET", url: "https://api.test/a?api_key=%5BREDACTED%5D", headers: ["Authorization": "Bearer [REDACTED]"]),
                        outcome: .response(.init(statusCode: 200))),
        ])
        let before = cassette
        Redaction.default.redact(&cassette)
        #expect(cassette == before, "a cassette with nothing new to redact is left as it was, without a salt")
        cassette.interactions.append(Interaction(
            request: .init(method: "GET", url: "https://api.test/b", headers: ["Cookie": "sid=abcdef123456; theme=dark"]),
            outcome: .response(.init(statusCode: 200))))
        Redaction.default.redact(&cassette)
        let salt = try #require(cassette.redactionSalt)
        #expect(cassette.interactions[0] == before.interactions[0])
        #expect(cassette.interactions[1].request.headers["Cookie"]
            == "sid=\(StandIn.make(for: "abcdef123456", salt: salt)); theme=\(StandIn.make(for: "dark", salt: salt))")
    }
}
