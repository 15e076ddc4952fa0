import Foundation
import Testing
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport

/// One content-coding rule for `tapedeck fetch`, live and replayed: decoded bytes, unless `--raw`.
@Suite struct FetchContentCodingTests {
    @Test func liveAndReplayedFetchWriteTheSameBytes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        let url = server.url("/gzip").absoluteString
        func fetch(_ name: String, _ arguments: [String]) async throws -> Data {
            let file = directory.file(name)
            let result = try await CLIRunner.run(["fetch", url, "-o", file.path] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: file)
        }
        let live = try await fetch("live", [])
        // Recorded raw (the transport left the gzip stream as it came), so the cassette stores it decoded and marks
        // it gzip; recorded decoded, it stores what the client got.
        let rawCassette = directory.file("raw.json").path, decodedCassette = directory.file("decoded.json").path
        let liveRaw = try await fetch("live-raw", ["--raw", "--cassette", rawCassette, "--mode", "once"])
        _ = try await fetch("recorded", ["--cassette", decodedCassette, "--mode", "once"])
        server.stop()

        #expect(liveRaw.starts(with: [0x1F, 0x8B]), "--raw writes the gzip stream")
        #expect(try JSONSerialization.jsonObject(with: live) is [String: Any], "live fetch writes decoded JSON")
        #expect(try CassetteFile.load(URL(fileURLWithPath: rawCassette)).interactions[0].response?.body.contentEncoding == "gzip")
        // httpbin's /gzip echoes the request's headers, and a raw fetch sends no Accept-Encoding: each cassette is
        // compared with what its own live fetch gave.
        let gzip = try #require(ExternalCommand.find("gzip"))
        let liveRawDecoded = try await ExternalCommand.run(gzip, ["-dc"], input: liveRaw).standardOutput
        #expect(try await fetch("replayed", ["--cassette", decodedCassette, "--mode", "replay"]) == live,
                "replay writes the decoded body, as live")
        #expect(try await fetch("replayed", ["--cassette", rawCassette, "--mode", "replay"]) == liveRawDecoded,
                "a body the cassette stores decoded is replayed decoded")
        let replayedRaw = try await fetch("replayed-raw", ["--raw", "--cassette", rawCassette, "--mode", "replay"])
        #expect(replayedRaw.starts(with: [0x1F, 0x8B]), "--raw replays the gzip stream")
        #expect(try await ExternalCommand.run(gzip, ["-dc"], input: replayedRaw).standardOutput == liveRawDecoded)
    }
}
