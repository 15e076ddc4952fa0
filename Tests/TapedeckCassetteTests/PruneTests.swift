import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting

/// `CassetteConfiguration.pruneUnplayed`: what a newEpisodes run never played is dropped when it finishes.
@Suite struct PruneTests {
    /// An interaction whose response body lives in the sidecar file `name`.
    private func withSidecar(_ url: String, _ name: String, cassette: URL) throws -> Interaction {
        let path = "cassette.bodies/\(name)"
        let file = CassetteFile.sidecarURL(path, cassette: cassette)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(name.utf8).write(to: file)
        var recorded = interaction("GET", url)
        recorded.outcome = .response(.init(statusCode: 200, reasonPhrase: "OK", body: CassetteBody(sidecar: path, byteCount: Int64(name.utf8.count))))
        return recorded
    }

    @Test(.stubServer { $0.route(.get, "/new", response: .text("new")) })
    func unplayedInteractionsAndTheirOwnSidecarsAreDropped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette()
        let server = try #require(TapedeckTest.currentStubServer)
        try CassetteFile.save(Cassette(interactions: [
            interaction("GET", "https://api.example.test/kept", responseBody: "kept"),
            try withSidecar("https://api.example.test/stale", "stale.bin", cassette: cassette),
            try withSidecar("https://api.example.test/shared-kept", "shared.bin", cassette: cassette),
            try withSidecar("https://api.example.test/shared-stale", "shared.bin", cassette: cassette),
        ]), to: cassette)
        let transport = try openCassette(cassette, mode: .newEpisodes, upstream: CurlTransport(),
                                         configuration: CassetteConfiguration(pruneUnplayed: true))
        _ = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.test/kept")!))
        _ = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.test/shared-kept")!))
        _ = try await transport.send(HTTPRequest(url: server.url("/new")))
        let summary = try transport.finish()
        #expect(summary.pruned == ["#1 GET https://api.example.test/stale", "#3 GET https://api.example.test/shared-stale"])
        #expect(summary.unplayed.isEmpty)
        #expect(summary.interactionCount == 3)
        let saved = try CassetteFile.load(cassette).interactions.map(\.request.url)
        #expect(saved == ["https://api.example.test/kept", "https://api.example.test/shared-kept", server.url("/new").absoluteString])
        #expect(!FileManager.default.fileExists(atPath: CassetteFile.sidecarURL("cassette.bodies/stale.bin", cassette: cassette).path))
        #expect(FileManager.default.fileExists(atPath: CassetteFile.sidecarURL("cassette.bodies/shared.bin", cassette: cassette).path),
                "a sidecar a kept interaction uses stays")
        #expect(!FileManager.default.fileExists(atPath: CassetteFile.journalURL(cassette).path))
    }

    @Test func withoutTheOptionNothingIsDropped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try CassetteFile.save(Cassette(interactions: [interaction("GET", "https://api.example.test/a"), interaction("GET", "https://api.example.test/b")]),
                              to: directory.cassette())
        let transport = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport())
        _ = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.test/a")!))
        let summary = try transport.finish()
        #expect(summary.pruned.isEmpty)
        #expect(summary.unplayed == ["#1 GET https://api.example.test/b"])
        #expect(try CassetteFile.load(directory.cassette()).interactions.count == 2)
    }
}
