import Foundation
import Synchronization
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// One cassette, two replay paths: what a client gets from `CassetteTransport(mode: .replay)` in process and
    /// from a `StubServer` serving the same cassette over sockets must be the same.
    @Suite struct CassetteServingParityTests {
        let client = CurlTransport()

        /// The traffic: JSON, text, binary (inline and sidecar), gzip, chunked, multipart, a 404, three transport
        /// errors, two identical requests answered differently, and a request carrying secrets.
        static func requests(base: URL, secret: String) -> [HTTPRequest] {
            func url(_ path: String) -> URL { URL(string: base.absoluteString + path)! }
            let boundary = "tapedeck-boundary-7"
            let multipart = "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n"
                + "--\(boundary)--\r\n"
            var requests = [
                HTTPRequest(url: url("/json")),
                HTTPRequest(url: url("/xml")),
                HTTPRequest(url: url("/image/png")),
                HTTPRequest(url: url("/bytes/4096")),
                HTTPRequest(url: url("/gzip")),
                HTTPRequest(url: url("/stream-bytes/3000?chunk_size=700")),
                HTTPRequest(method: .post, url: url("/post"), headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                            body: .data(Data(multipart.utf8))),
                HTTPRequest(url: url("/status/404")),
                HTTPRequest(url: url("/counter")),
                HTTPRequest(url: url("/counter")),
                HTTPRequest(url: url("/reset")),
                HTTPRequest(url: url("/close")),
                HTTPRequest(url: url("/hang"), timeoutInterval: 0.5),
                HTTPRequest(url: url("/get?page=2&api_key=\(secret)"), headers: ["Authorization": "Bearer \(secret)"]),
            ]
            requests[0].headers["Accept"] = "application/json"
            return requests
        }

        /// The httpbin server plus a counter answered differently each time, and three faults.
        static func makeOrigin() throws -> StubServer {
            let server = try StubServer.httpbin()
            let count = Atomic(0)
            server.route(.get, "/counter") { _ in .text("call \(count.add(1, ordering: .relaxed).newValue)") }
            server.add(Stub(RequestPattern(.get, "/reset"), fault: .reset))
            server.add(Stub(RequestPattern(.get, "/close"), fault: .closeWithoutResponse))
            server.add(Stub(RequestPattern(.get, "/hang"), fault: .noResponse))
            return server
        }

        @Test func inProcessAndSocketReplaysGiveTheSameResults() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("parity.json")
            var configuration = CassetteConfiguration()
            configuration.sidecarThreshold = 2048

            // Record from the live server.
            let origin = try Self.makeOrigin()
            let originBase = origin.baseURL
            let recorder = try openCassette(file, mode: .all, upstream: client, configuration: configuration)
            var live: [ClientOutcome] = []
            for request in Self.requests(base: originBase, secret: "LIVE-SECRET-1") {
                live.append(await ClientOutcome.of(request, over: recorder))
            }
            try recorder.finish()
            origin.stop()
            #expect(live.map(\.errorCode).compactMap { $0 } == [-1005, -1011, -1001])
            #expect(live[8].body != live[9].body, "the two identical requests were answered differently")
            #expect(!bytes(allBytes(under: directory.url), contain: "LIVE-SECRET-1"))

            // (a) In process. The secret differs from the recorded one: redaction makes it match anyway.
            let inProcess = try openCassette(file, mode: .replay, configuration: configuration)
            var replayed: [ClientOutcome] = []
            for request in Self.requests(base: originBase, secret: "OTHER-SECRET") {
                replayed.append(await ClientOutcome.of(request, over: inProcess))
            }
            let inProcessSummary = try inProcess.finish()

            // (b) Over sockets, with the original server gone.
            let server = try StubServer(cassette: file, cassetteConfiguration: configuration)
            defer { server.stop() }
            var served: [ClientOutcome] = []
            for request in Self.requests(base: server.baseURL, secret: "OTHER-SECRET") {
                served.append(await ClientOutcome.of(request, over: client))
            }

            #expect(replayed.count == served.count)
            for (index, (a, b)) in zip(replayed, served).enumerated() {
                #expect(a == b, "request \(index): in process \(a), served \(b)")
            }
            for (index, (recorded, a)) in zip(live, replayed).enumerated() {
                #expect(recorded.status == a.status && recorded.errorCode == a.errorCode, "request \(index) replays as recorded")
            }
            #expect(replayed[8].body == Data("call 1".utf8) && served[9].body == Data("call 2".utf8), "identical requests in recorded order")
            #expect(replayed[4].headers.contains("content-encoding: gzip"))
            #expect(String(decoding: served[4].body, as: UTF8.self).contains("gzipped"))
            #expect(served[5].headers.contains("transfer-encoding: chunked"))
            #expect(served[3].body == StubBody.generatedBytes(from: 0, count: 4096), "a sidecar body is served from its file")

            let summary = try #require(server.cassetteSummary())
            #expect(summary.unplayed.isEmpty && inProcessSummary.unplayed.isEmpty)
            #expect(summary.interactionCount == inProcessSummary.interactionCount)
            #expect(summary.playedCount == served.count)
        }

        @Test func anUnmatchedRequestGetsTheCassettesNearMissReport() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let origin = try Self.makeOrigin()
            let recorder = try openCassette(file, mode: .all, upstream: client)
            _ = try await recorder.send(HTTPRequest(url: origin.url("/json")))
            _ = try await recorder.send(HTTPRequest(url: origin.url("/xml")))
            try recorder.finish()
            origin.stop()

            let inProcess = try openCassette(file, mode: .replay)
            var inProcessReport = ""
            do {
                _ = try await inProcess.send(HTTPRequest(url: origin.url("/jsn")))
            } catch let error as CassetteError {
                inProcessReport = error.description
            }

            let server = try StubServer(cassette: file)
            defer { server.stop() }
            let response = try await client.send(HTTPRequest(url: server.url("/jsn")))
            #expect(response.statusCode == 404)
            #expect(response.headers["X-Tapedeck-Unmatched"] == "1")
            #expect(response.text == inProcessReport + "\n")
            #expect(response.text.contains(file.path) && response.text.contains("/json"), "names the cassette and the nearest request")

            let summary = try #require(server.cassetteSummary())
            #expect(summary.unmatched == ["GET \(origin.baseURL.absoluteString)/jsn"])
            #expect(summary.unplayed.count == 2)
            #expect(throws: CassetteError.self) { try server.finishCassette(requireAllPlayed: true) }
            #expect(server.cassetteSummary() == nil, "finishing stops serving")
            #expect(try await client.send(HTTPRequest(url: server.url("/json"))).statusCode == 404)
        }

        @Test func stubsAnswerFirstAndTheHostHeaderPicksTheRecordedOrigin() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette()
            let first = try Self.makeOrigin()
            let second = try Self.makeOrigin()
            let recorder = try openCassette(file, mode: .all, upstream: client)
            _ = try await recorder.send(HTTPRequest(url: first.url("/counter")))
            _ = try await recorder.send(HTTPRequest(url: second.url("/counter")))
            _ = try await recorder.send(HTTPRequest(url: second.url("/counter")))
            try recorder.finish()
            let secondPort = second.port
            first.stop()
            second.stop()

            let server = try StubServer(cassette: file)
            defer { server.stop() }
            server.route(.get, "/stubbed", response: .text("from a stub"))
            #expect(try await client.send(HTTPRequest(url: server.url("/stubbed"))).text == "from a stub")
            // Routed here under the second origin's name: its recordings answer.
            let routed = CurlTransport(configuration: .init(connectTo: ["127.0.0.1:\(secondPort):127.0.0.1:\(server.port)"]))
            let viaHost = try await routed.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(secondPort)/counter")!))
            #expect(viaHost.text == "call 1")
            #expect(try await routed.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(secondPort)/counter")!)).text == "call 2")
            // Under the server's own name: the default, first recorded origin.
            #expect(try await client.send(HTTPRequest(url: server.url("/counter"))).text == "call 1")
        }
    }
}
