import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Bodies large enough for a sidecar file are redacted before they are written, like inline ones.
@Suite struct SidecarRedactionTests {
    @Test func secretsInALargeJSONBodyNeverReachTheSidecar() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        let secret = "s3cr3t-password-value-7f1d"
        let token = "tok-9c2e11aa77bb"
        // ~2 MiB of JSON answered with a token, and a ~2 MiB JSON request carrying a password: both over the 1 MiB
        // sidecar threshold.
        let filler = String(repeating: "x", count: 2 << 20)
        server.route(.post, "/login") { _ in
            .json(Data(#"{"token":"\#(token)","padding":"\#(filler)"}"#.utf8))
        }
        let cassette = directory.cassette("large.json")
        let recorder = try openCassette(cassette, mode: .once, upstream: CurlTransport())
        var request = HTTPRequest(method: .post, url: server.url("/login"), headers: ["Content-Type": "application/json"])
        request.body = .data(Data(#"{"user":"ada","password":"\#(secret)","padding":"\#(filler)"}"#.utf8))
        let live = try await recorder.send(request)
        #expect(live.data?.count ?? 0 > 2 << 20)
        try recorder.finish()

        let bodies = directory.url.appendingPathComponent("large.bodies")
        let files = try FileManager.default.contentsOfDirectory(atPath: bodies.path).filter { $0.hasSuffix(".bin") }
        #expect(files.count == 2, "\(files)")
        for name in files + ["../large.json"] {
            let bytes = try Data(contentsOf: bodies.appendingPathComponent(name))
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds the password")
            #expect(bytes.range(of: Data(token.utf8)) == nil, "\(name) holds the token")
        }
        // The redacted request still replays.
        let player = try openCassette(cassette, mode: .replay)
        let replayed = try await player.send(request)
        #expect(replayed.statusCode == 200)
        #expect(String(decoding: replayed.data ?? Data(), as: UTF8.self).contains(StandIn.prefix))
    }

    @Test func aSecretFoundInASidecarBodyIsScrubbedFromEveryOtherInteraction() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        let token = "tok-sidecar-3f9a77c1d2"
        let filler = String(repeating: "x", count: 2 << 20)
        // The token is seen first where no rule finds it (a plain text echo), then in a large JSON body's `token`.
        server.route(.get, "/echo") { _ in .text("your session is \(token)") }
        server.route(.post, "/login") { _ in .json(Data(#"{"token":"\#(token)","padding":"\#(filler)"}"#.utf8)) }
        server.route(.get, "/later") { _ in .text("still \(token)") }
        let cassette = directory.cassette("echo.json")
        let recorder = try openCassette(cassette, mode: .once, upstream: CurlTransport())
        _ = try await recorder.send(HTTPRequest(url: server.url("/echo")))
        _ = try await recorder.send(HTTPRequest(method: .post, url: server.url("/login")))
        _ = try await recorder.send(HTTPRequest(url: server.url("/later")))
        try recorder.finish()

        for file in try FileManager.default.subpathsOfDirectory(atPath: directory.url.path) {
            let bytes = (try? Data(contentsOf: directory.url.appendingPathComponent(file))) ?? Data()
            #expect(bytes.range(of: Data(token.utf8)) == nil, "\(file) holds the token")
        }
        let saved = try CassetteFile.load(cassette)
        let standIn = StandIn.make(for: token, salt: try #require(saved.redactionSalt))
        #expect(saved.interactions.map { $0.response?.body.inlineData.map { String(decoding: $0, as: UTF8.self) } } == [
            "your session is \(standIn)", nil, "still \(standIn)",
        ])
    }

    /// A large download is redacted as it streams to its sidecar: the request's bearer token, echoed after the first
    /// 64 MiB, never reaches disk.
    @Test func aDownloadTooLargeToHoldInMemoryIsRedactedAsItStreams() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer()
        defer { server.stop() }
        let token = "bearer-token-streamed-5d1c9e"
        let line = String(repeating: "log line without the secret ", count: 36) + "\n"
        let lines = (66 << 20) / line.utf8.count
        server.route(.get, "/export", response: .text(String(repeating: line, count: lines) + "the end: \(token)\n"))
        let cassette = directory.cassette("export.json")
        let recorder = try openCassette(cassette, mode: .once, upstream: CurlTransport())
        let download = directory.url.appendingPathComponent("export.txt")
        let response = try await recorder.send(HTTPRequest(url: server.url("/export"), headers: ["Authorization": "Bearer \(token)"],
                                                           responseBody: .file(download)))
        #expect(response.statusCode == 200)
        try recorder.finish()
        let saved = try CassetteFile.load(cassette)
        let stored = try #require(saved.interactions.first?.response?.body)
        let bytes = try CassetteFile.bodyData(stored, cassette: cassette)
        #expect(bytes.count > 66 << 20 - 4096)
        #expect(bytes.range(of: Data(token.utf8)) == nil, "the sidecar holds the token")
        let standIn = StandIn.make(for: token, salt: try #require(saved.redactionSalt))
        #expect(String(decoding: bytes.suffix(200), as: UTF8.self).hasSuffix("the end: \(standIn)\n"))
        for file in try FileManager.default.subpathsOfDirectory(atPath: directory.url.path) where file != "export.txt" {
            let data = (try? Data(contentsOf: directory.url.appendingPathComponent(file))) ?? Data()
            #expect(data.range(of: Data(token.utf8)) == nil, "\(file) holds the token")
        }
    }
}
