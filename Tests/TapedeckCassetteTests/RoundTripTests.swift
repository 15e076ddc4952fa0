import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Record from a StubServer over the live transport, stop the server, replay: the results must be identical.
@Suite struct RoundTripTests {
    static func multipartRequest(_ server: StubServer) -> HTTPRequest {
        let boundary = "tapedeck-boundary-1"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"b.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += Data((0..<300).map { UInt8($0 % 256) }) + Data("\r\n--\(boundary)--\r\n".utf8)
        return HTTPRequest(method: .post, url: server.url("/post"), headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: .data(body))
    }


    @Test func inMemoryBodiesAndErrorsReplayIdentically() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        server.route(.get, "/text", response: .text("plain text, ünïcödé\r\nsecond line\n"))
        server.route(.get, "/chunked", response: StubResponse(headers: ["Content-Type": "application/octet-stream"],
                                                              body: .chunked(ChunkedBody(generatedLength: 50_000, chunkSize: 7_000))))
        let refusing = try RefusingLoopbackPort()
        defer { withExtendedLifetime(refusing) {} }
        let closedPort = refusing.url("/nothing-listens-here")
        var json = HTTPRequest(method: .post, url: server.url("/post?b=2&a=1"), headers: ["Content-Type": "application/json"])
        json.body = .data(Data(#"{"z":1,"a":[true,null,"x/y"]}"#.utf8))
        let requests = [
            HTTPRequest(url: server.url("/json")), HTTPRequest(url: server.url("/text")), HTTPRequest(url: server.url("/bytes/4096")),
            HTTPRequest(url: server.url("/gzip")), HTTPRequest(url: server.url("/chunked")), Self.multipartRequest(server),
            HTTPRequest(url: server.url("/status/418")), json, HTTPRequest(url: server.url("/image/png")),
        ]
        let cassette = directory.cassette("roundtrip.json")
        let recorder = try openCassette(cassette, mode: .once, upstream: CurlTransport())
        var live: [ResponseSnapshot] = []
        for request in requests { live.append(ResponseSnapshot(try await recorder.send(request))) }
        let recordedError = await #expect(throws: URLError.self) { try await recorder.send(HTTPRequest(url: closedPort)) }
        try recorder.finish()
        server.stop()

        let player = try openCassette(cassette, mode: .replay)
        for (request, expected) in zip(requests, live) {
            let replayed = ResponseSnapshot(try await player.send(request))
            #expect(replayed == expected, "\(request.url)")
        }
        let replayedError = await #expect(throws: URLError.self) { try await player.send(HTTPRequest(url: closedPort)) }
        #expect(replayedError?.code == recordedError?.code)
        #expect(replayedError?.code == .cannotConnectToHost)
        #expect(replayedError?.transportCode == recordedError?.transportCode)
        #expect(replayedError?.localizedDescription == recordedError?.localizedDescription)
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)

        // How bodies were stored: JSON structured, text as text, binary as base64.
        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(text.contains(#""encoding": "json""#))
        #expect(text.contains(#""text": "plain text, ünïcödé\r\nsecond line\n""#))
        #expect(text.contains(#""encoding": "base64""#))
        #expect(text.contains(#""name": "cannotConnectToHost""#))
    }

    @Test func filesStreamsAndSidecarsReplayIdentically() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        var configuration = CassetteConfiguration()
        configuration.sidecarThreshold = 2_000
        configuration.matching = [.method, .url, .body]
        let upload = directory.url.appendingPathComponent("upload.bin")
        try Data((0..<5_000).map { UInt8(($0 * 7) % 251) }).write(to: upload)
        let streamed = Data((0..<3_000).map { UInt8($0 % 13) })
        func requests(_ tag: String) -> [HTTPRequest] {
            [
                HTTPRequest(url: server.url("/bytes/6000"), responseBody: .file(directory.url.appendingPathComponent("down-\(tag).bin"))),
                HTTPRequest(url: server.url("/stream-bytes/3000?chunk_size=512"), responseBody: .stream),
                HTTPRequest(method: .put, url: server.url("/put"), body: .file(upload)),
                HTTPRequest(method: .post, url: server.url("/post"), body: .stream(HTTPBodyStream(length: nil) {
                    AsyncStream { continuation in
                        continuation.yield(streamed.prefix(1_000))
                        continuation.yield(streamed.dropFirst(1_000))
                        continuation.finish()
                    }
                })),
            ]
        }
        func run(_ transport: CassetteTransport, _ tag: String) async throws -> [ResponseSnapshot] {
            var snapshots: [ResponseSnapshot] = []
            for request in requests(tag) {
                let log = TransportEventLog()
                let response = try await transport.send(request, onEvent: log.handler)
                let chunks = log.bodyChunks.reduce(Data(), +)
                #expect(!log.heads.isEmpty)
                switch response.body {
                case .file(let url, _): snapshots.append(ResponseSnapshot(response, body: try Data(contentsOf: url)))
                case .streamed: snapshots.append(ResponseSnapshot(response, body: chunks))
                case .data: snapshots.append(ResponseSnapshot(response))
                }
            }
            return snapshots
        }
        let cassette = directory.cassette("files.json")
        let recorder = try openCassette(cassette, mode: .once, upstream: CurlTransport(), configuration: configuration)
        let live = try await run(recorder, "live")
        try recorder.finish()
        server.stop()
        let bodies = try FileManager.default.contentsOfDirectory(atPath: directory.url.appendingPathComponent("files.bodies").path)
        #expect(bodies.filter { $0.hasSuffix(".bin") }.count >= 3, "\(bodies)")
        let player = try openCassette(cassette, mode: .replay, configuration: configuration)
        let replayed = try await run(player, "replay")
        #expect(replayed.map(\.body) == live.map(\.body))
        #expect(replayed.map(\.status) == live.map(\.status))
        #expect(replayed.map(\.headers) == live.map(\.headers))
        #expect(live[0].body.count == 6_000 && live[1].body.count == 3_000)
        try player.finish(requireAllPlayed: true)
    }

    @Test func recordedErrorsAndResponsesKeepTheirMetricsAndTLSFields() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        let cassette = directory.cassette()
        let recorder = try openCassette(cassette, mode: .all, upstream: CurlTransport())
        let live = try await recorder.send(HTTPRequest(url: server.url("/get")))
        try recorder.finish()
        server.stop()
        let replayed = try await openCassette(cassette, mode: .replay).send(HTTPRequest(url: server.url("/get")))
        #expect(replayed.metrics.remotePort == live.metrics.remotePort)
        #expect(abs(replayed.metrics.total - live.metrics.total) < 0.000_001)
        #expect(replayed.head.version == live.head.version)
        #expect(replayed.head.reasonPhrase == live.head.reasonPhrase)
    }
}
