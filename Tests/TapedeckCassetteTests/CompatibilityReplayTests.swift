import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport
import TapedeckCore

/// Every interaction of every frozen v1 cassette replays through ``CassetteTransport`` as recorded: status, head,
/// body bytes (from sidecars, in recorded chunks, gzip-encoded again), metrics, certificates, recorded errors and
/// streams cut short.
@Suite struct CompatibilityReplayTests {
    /// The body chunks a replay delivered.
    final class Delivered: Sendable {
        let chunks = Locked<[Data]>([])
        var body: Data { chunks.withLock { $0.reduce(Data(), +) } }
    }

    /// The live request a client would send for a recorded one.
    static func request(for recorded: Interaction.Request, cassette: URL) throws -> HTTPRequest {
        let body = try CassetteFile.bodyData(recorded.body, cassette: cassette)
        return HTTPRequest(method: HTTPMethod(rawValue: recorded.method), url: try #require(URL(string: recorded.url)),
                           headers: recorded.headers, body: body.isEmpty ? .none : .data(body), responseBody: .stream)
    }

    @Test(arguments: CompatibilityCorpus.files)
    func replaysEveryInteraction(_ file: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try CompatibilityCorpus.copy(file, into: directory)
        let cassette = try CassetteFile.load(url)
        let transport = try openCassette(url, mode: .replay)
        for (index, interaction) in cassette.interactions.enumerated() {
            let place = "\(file) interactions[\(index)]"
            let request = try Self.request(for: interaction.request, cassette: url)
            let delivered = Delivered()
            do {
                let response = try await transport.send(request) { event in
                    if case .bodyChunk(let chunk) = event { delivered.chunks.withLock { $0.append(chunk) } }
                }
                let recorded = try #require(interaction.response, "\(place) replayed a response for a recorded error")
                #expect(recorded.interruption == nil, "\(place) completed a stream recorded as cut short")
                try Self.check(response, delivered: delivered, against: recorded, of: interaction, cassette: url, place: place)
            } catch let error as URLError {
                let expected = interaction.failure ?? interaction.response?.interruption
                #expect(error.code.rawValue == expected?.code, "\(place)")
                #expect(error.transportCode == expected?.transportCode, "\(place)")
                #expect(error.transportMessage == expected?.transportMessage, "\(place)")
                #expect(error.localizedDescription == expected?.message, "\(place)")
                if let recorded = interaction.response {
                    // A stream cut short delivers its body, in its chunks, before the error.
                    #expect(delivered.body == (try CassetteFile.bodyData(recorded.body, cassette: url)), "\(place)")
                    #expect(delivered.chunks.withLock { $0.map(\.count) } == recorded.chunks?.map(\.byteCount), "\(place)")
                }
            }
        }
        #expect(try transport.finish(requireAllPlayed: true).unplayed.isEmpty)
    }

    /// The replayed response against the recording.
    static func check(_ response: HTTPResponse, delivered: Delivered, against recorded: Interaction.Response,
                      of interaction: Interaction, cassette: URL, place: String) throws {
        #expect(response.statusCode == recorded.statusCode, "\(place)")
        #expect(response.head.reasonPhrase == recorded.reasonPhrase, "\(place)")
        #expect(response.head.version == recorded.httpVersion, "\(place)")
        #expect(response.head.url.absoluteString == recorded.url ?? interaction.request.url, "\(place)")
        #expect(response.metrics == interaction.metrics, "\(place)")
        #expect(response.peerCertificates == interaction.peerCertificates, "\(place)")
        let stored = try CassetteFile.bodyData(recorded.body, cassette: cassette)
        if recorded.isTemplated {
            // Filled from the request (the exact text is checked in templatedResponsesAreFilledFromTheRequest).
            #expect(!delivered.body.isEmpty && delivered.body != stored, "\(place)")
            #expect(!String(decoding: delivered.body, as: UTF8.self).contains("{{"), "\(place)")
            return
        }
        #expect(response.headers == recorded.headers, "\(place)")
        // A body stored decoded (`contentEncoding: gzip`) is delivered decoded, as a live transport that decodes
        // delivers it (ContentCodingTests checks it is compressed again for a caller that asks for raw bytes).
        #expect(delivered.body == stored, "\(place)")
        if let chunks = recorded.chunks {
            #expect(delivered.chunks.withLock { $0.map(\.count) } == chunks.map(\.byteCount), "\(place)")
        }
    }

    @Test func templatedResponsesAreFilledFromTheRequest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try CompatibilityCorpus.copy("Cassettes/Compatibility/v1/templated.json", into: directory)
        let transport = try openCassette(url, mode: .replay)
        let echo = try await transport.send(HTTPRequest(url: try #require(URL(string: "http://127.0.0.1:8080/echo?name=ann")),
                                                        headers: ["X-Request-Id": "req-42"]))
        #expect(echo.data.map { String(decoding: $0, as: UTF8.self) } == "Hello ann, you sent GET /echo")
        #expect(echo.headers["X-Request-Id"] == "req-42")
        let json = try await transport.send(HTTPRequest(method: .post, url: try #require(URL(string: "http://127.0.0.1:8080/echo/json")),
                                                        headers: ["Content-Type": "application/json"],
                                                        body: .data(Data(#"{"user":{"name":"bob"}}"#.utf8))))
        #expect(json.data.map { String(decoding: $0, as: UTF8.self) } == #"{"received":"bob","method":"POST"}"#)
    }
}
