import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckCore

/// When redaction rewrites a body recorded with its chunk timing, the chunks are re-cut with it: the cassette loads
/// back, and replays in chunks that add up to the body it holds.
@Suite struct RedactedChunkTimingTests {
    private static let cookie = "session=0123456789abcdefghijklmnopqrstuvwxyz-s3cr3t"
    private static let sid = "sid-learned-later-9f8e7d6c5b4a39281706"
    private static let padding = String(repeating: "p", count: 96)

    /// `/echo` answers in three paced chunks: the request's cookie (a secret known when it is redacted), padding,
    /// and a value that `/login` then sets as a cookie (a secret learned only after `/echo` was stored).
    private func serve(_ server: StubServer) {
        server.route(.get, "/echo") { request in
            let parts = [#"{"cookie":"\#(request.headers["Cookie"] ?? "")","#, #""padding":"\#(Self.padding)","#, #""sid":"\#(Self.sid)"}"#]
            var body = ChunkedBody(data: Data(parts.joined().utf8))
            body.schedule = zip(parts, [0, 0.15, 0.3]).map { TimedChunk(byteCount: $0.utf8.count, at: $1) }
            return StubResponse(headers: ["Content-Type": "application/json"], body: .chunked(body))
        }
        server.route(.get, "/login", response: StubResponse(headers: ["Set-Cookie": "sid=\(Self.sid); Path=/"], body: .data(Data("ok".utf8))))
    }

    @Test(arguments: [1 << 20, 32])
    func aRedactedBodyKeepsChunksThatAddUp(sidecarThreshold: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = CassetteConfiguration(chunkTiming: .always)
        configuration.sidecarThreshold = sidecarThreshold
        let origin = try await withStubServer { server in
            serve(server)
            let recorder = try openCassette(directory.cassette(), mode: .all, upstream: server.transport(), configuration: configuration)
            _ = try await recorder.send(HTTPRequest(url: server.url("/echo"), headers: ["Cookie": Self.cookie]))
            _ = try await recorder.send(HTTPRequest(url: server.url("/login")))
            try recorder.finish()
            return server.url("/")
        }

        let cassette = try CassetteFile.load(directory.cassette())
        let response = try #require(cassette.interactions.first?.response)
        let body = try CassetteFile.bodyData(response.body, cassette: directory.cassette())
        let text = String(decoding: body, as: UTF8.self)
        #expect(!text.contains("s3cr3t") && !text.contains(Self.sid), "both secrets are gone: \(text)")
        #expect((response.body.sidecarPath != nil) == (sidecarThreshold < body.count))
        let chunks = try #require(response.chunks)
        #expect(chunks.reduce(0) { $0 + $1.byteCount } == body.count)
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.at <= $1.at })
        if chunks.count == 3 {
            // Each secret was in one chunk: that chunk alone changed size, the padding's kept its bytes.
            #expect(chunks[1].byteCount == #""padding":""#.utf8.count + Self.padding.utf8.count + 2)
        }

        let player = try openCassette(directory.cassette(), mode: .replay)
        let sizes = Locked<[Int]>([])
        let replayed = try await player.send(HTTPRequest(url: origin.appendingPathComponent("echo"), headers: ["Cookie": Self.cookie],
                                                         responseBody: .stream)) { event in
            if case .bodyChunk(let chunk) = event { sizes.withLock { $0.append(chunk.count) } }
        }
        #expect(replayed.statusCode == 200)
        #expect(sizes.withLock { $0 } == chunks.map(\.byteCount))
        _ = try await player.send(HTTPRequest(url: origin.appendingPathComponent("login")))
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
    }

    @Test func aChunkBoundaryMovesOnlyWhereTheBodyChanged() {
        let chunks = [TimedChunk(byteCount: 10, at: 0), TimedChunk(byteCount: 10, at: 1), TimedChunk(byteCount: 10, at: 2)]
        #expect(TimedChunk.recut(chunks, to: 40, unchangedPrefix: 12, unchangedSuffix: 14).map(\.byteCount) == [10, 20, 10])
        #expect(TimedChunk.recut(chunks, to: 24, unchangedPrefix: 2, unchangedSuffix: 22).map(\.byteCount) == [4, 10, 10])
        // An edit across a boundary moves it in proportion within the edit.
        #expect(TimedChunk.recut(chunks, to: 50, unchangedPrefix: 5, unchangedSuffix: 5).map(\.byteCount) == [15, 20, 15])
        // Without known ends every boundary scales; a chunk emptied is dropped and the times stay.
        #expect(TimedChunk.recut(chunks, to: 15) == [TimedChunk(byteCount: 5, at: 0), TimedChunk(byteCount: 5, at: 1), TimedChunk(byteCount: 5, at: 2)])
        #expect(TimedChunk.recut(chunks, to: 2).reduce(0) { $0 + $1.byteCount } == 2)
        #expect(TimedChunk.unchangedEnds(Data("abcXYZdef".utf8), Data("abc12def".utf8)) == (3, 3))
    }

    @Test func theRecorderRefusesChunksThatDoNotAddUp() throws {
        var state = CassetteSession.StateMachine(player: CassettePlayer(cassette: Cassette()), file: "c.json")
        let interaction = Interaction(
            request: .init(method: "GET", url: "http://127.0.0.1:9/x"),
            outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("abc".utf8)), chunks: [TimedChunk(byteCount: 5, at: 0)])))
        #expect {
            _ = try state.commit(interaction, ownSecrets: [], redaction: .disabled, volatileHeaders: [])
        } throws: { error in
            guard case CassetteError.unreadableRecording(file: "c.json", _, place: "interactions[0].response.chunks", let reason) = error else { return false }
            return reason.contains("add up to 5 bytes but the body has 3")
        }
    }
}
