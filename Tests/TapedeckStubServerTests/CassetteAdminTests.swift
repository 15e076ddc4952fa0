import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// `POST/GET/DELETE /__admin/cassettes`.
    @Suite struct CassetteAdminTests {
        let client = CurlTransport()

        private func admin(_ server: StubServer, _ method: HTTPMethod, body: String? = nil, token: String? = nil) async throws -> HTTPResponse {
            var request = HTTPRequest(method: method, url: server.url("/__admin/cassettes"))
            if let body { request.body = .data(Data(body.utf8)) }
            if let token { request.headers["Authorization"] = "Bearer \(token)" }
            return try await client.send(request)
        }

        @Test func aCassetteLoadedThroughTheAdminAPIIsServed() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let origin = try CassetteServingParityTests.makeOrigin()
            let recorder = try openCassette(file, mode: .all, upstream: client)
            _ = try await recorder.send(HTTPRequest(url: origin.url("/counter")))
            try recorder.finish()
            origin.stop()

            let server = try StubServer(configuration: .init(admin: AdminConfiguration(token: "t0k")))
            defer { server.stop() }
            let refused = try await admin(server, .post, body: #"{"path": "\#(file.path)"}"#)
            #expect(refused.statusCode == 401, "the admin rules apply")
            let loaded = try await admin(server, .post, body: #"{"path": "\#(file.path)"}"#, token: "t0k")
            #expect(loaded.statusCode == 201)
            #expect(loaded.text.contains(#""interactions":1"#))
            #expect(try await client.send(HTTPRequest(url: server.url("/counter"))).text == "call 1")
            let summary = try await admin(server, .get, token: "t0k")
            #expect(summary.text.contains(#""played":1"#) && summary.text.contains(#""unplayed":[]"#))
            #expect(try await admin(server, .delete, token: "t0k").statusCode == 200)
            #expect(server.cassetteSummary() == nil)
            #expect(try await admin(server, .get, token: "t0k").statusCode == 404)
        }

        @Test func badLoadRequestsSayWhatIsWrong() async throws {
            let server = try StubServer(configuration: .init(admin: AdminConfiguration()))
            defer { server.stop() }
            let missing = try await admin(server, .post, body: #"{"path": "/nonexistent/tapedeck.json"}"#)
            #expect(missing.statusCode == 404)
            #expect(missing.text.contains("/nonexistent/tapedeck.json") && missing.text.contains("does not exist"))
            let noPath = try await admin(server, .post, body: #"{"origin": "http://a"}"#)
            #expect(noPath.statusCode == 400)
            #expect(noPath.text.contains("path"))
            let badOrigin = try await admin(server, .post, body: #"{"path": "/x.json", "origin": "nope"}"#)
            #expect(badOrigin.statusCode == 400 && badOrigin.text.contains("$.origin"))

            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try Data("{\"version\": 1, \"interactions\": [".utf8).write(to: directory.cassette())
            let corrupt = try await admin(server, .post, body: #"{"path": "\#(directory.cassette().path)"}"#)
            #expect(corrupt.statusCode == 400 && corrupt.text.contains(directory.cassette().path))
        }
    }
}
