import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport
import TapedeckCore

/// Exact redaction across a cassette: a secret learned in any place of any interaction is scrubbed from every part of
/// every interaction, before or after it, sidecar files included (no false negatives), and benign look-alikes
/// (`Access-Control-Allow-Credentials: true`, `token_type: bearer`, `expires_in: 3600`, `max_tokens: 1024`) are
/// kept as they were (no false positives).
@Suite struct RedactionAcrossInteractionsTests {
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func aSecretFoundAnywhereIsScrubbedEverywhereAndLookAlikesStay(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for round in 0..<30 {
            let planted = PlantedSecrets(count: 2 + Int(random.next() % 5), secretCount: 1 + Int(random.next() % 5), random: &random)
            var cassette = Cassette(interactions: planted.exchanges.map(\.interaction))
            Redaction.default.redact(&cassette)
            let text = String(decoding: CassetteCodec.encode(cassette), as: UTF8.self)
            #expect(planted.survivors(in: text).isEmpty, "seed \(seed) round \(round): \(planted.survivors(in: text))\n\(planted.plan.joined(separator: "\n"))")
            for (index, interaction) in cassette.interactions.enumerated() {
                #expect(PlantedSecrets.changedLookAlikes(in: interaction).isEmpty,
                        "seed \(seed) round \(round) #\(index): \(PlantedSecrets.changedLookAlikes(in: interaction))")
            }
        }
    }

    /// The same property while recording, interaction by interaction: a secret learned late is scrubbed from the
    /// interactions already on disk (the file is written again), and text bodies past the sidecar threshold are
    /// scrubbed in their sidecar files too.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func recordingScrubsEarlierAndLaterInteractionsAndSidecars(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        for round in 0..<6 {
            var planted = PlantedSecrets(count: 3 + Int(random.next() % 4), secretCount: 2 + Int(random.next() % 4), random: &random)
            for index in planted.exchanges.indices where planted.exchanges[index].responseText { planted.exchanges[index].padding = 600 }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let cassette = directory.cassette()
            let upstream = CannedTransport(planted.exchanges.map(\.interaction))
            let recorder = try openCassette(cassette, mode: .all, upstream: upstream,
                                            configuration: CassetteConfiguration(sidecarThreshold: 512))
            for exchange in planted.exchanges { _ = try await recorder.send(upstream.request(for: exchange.interaction)) }
            let journal = try String(decoding: Data(contentsOf: URL(fileURLWithPath: cassette.path + ".journal")), as: UTF8.self)
            let onDiskWhileRecording = try String(decoding: Data(contentsOf: cassette), as: UTF8.self) + journal
            #expect(planted.survivors(in: onDiskWhileRecording).isEmpty,
                    "seed \(seed) round \(round), before finishing: \(planted.survivors(in: onDiskWhileRecording))\n\(planted.plan.joined(separator: "\n"))")
            _ = try recorder.finish()
            for file in try FileManager.default.subpathsOfDirectory(atPath: directory.url.path) {
                let url = directory.url.appendingPathComponent(file)
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                let contents = try String(decoding: Data(contentsOf: url), as: UTF8.self)
                #expect(planted.survivors(in: contents).isEmpty,
                        "seed \(seed) round \(round): \(planted.survivors(in: contents)) in \(file)\n\(planted.plan.joined(separator: "\n"))")
            }
            for (index, interaction) in try CassetteFile.load(cassette).interactions.enumerated() {
                #expect(PlantedSecrets.changedLookAlikes(in: interaction).isEmpty,
                        "seed \(seed) round \(round) #\(index): \(PlantedSecrets.changedLookAlikes(in: interaction))")
            }
        }
    }
}

extension RedactionAcrossInteractionsTests {
    /// A password sent in one request and repeated in a later request's URL is scrubbed from that URL when recorded;
    /// on replay the player learns it from the live login the same way, so the later request still matches.
    @Test func aSecretRepeatedInALaterURLStillReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let login = Interaction(
            request: .init(method: "POST", url: "https://api.test/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                           body: CassetteBody(Data("user=ada&password=lovelace-42".utf8))),
            outcome: .response(.init(statusCode: 204)))
        let later = Interaction(request: .init(method: "GET", url: "https://api.test/digest/ada/lovelace-42/check"),
                                outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("ok".utf8)))))
        let upstream = CannedTransport([login, later])
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: upstream)
        for interaction in [login, later] { _ = try await recorder.send(upstream.request(for: interaction)) }
        _ = try recorder.finish()
        let recorded = try CassetteFile.load(directory.cassette())
        let standIn = StandIn.make(for: "lovelace-42", salt: try #require(recorded.redactionSalt))
        #expect(recorded.interactions.map(\.request.url) == ["https://api.test/login", "https://api.test/digest/ada/\(standIn)/check"])
        let player = try openCassette(directory.cassette(), mode: .replay)
        for interaction in [login, later] { _ = try await player.send(upstream.request(for: interaction)) }
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
    }
}

/// An upstream that answers each request with the response of the planted interaction with the same URL.
struct CannedTransport: HTTPTransport {
    let interactions: [Interaction]

    init(_ interactions: [Interaction]) {
        self.interactions = interactions
    }

    func request(for interaction: Interaction) -> HTTPRequest {
        HTTPRequest(method: HTTPMethod(rawValue: interaction.request.method), url: URL(string: interaction.request.url)!,
                    headers: interaction.request.headers, body: .data(interaction.request.body.inlineData ?? Data()))
    }

    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        guard let recorded = interactions.first(where: { $0.request.url == request.url.absoluteString })?.response else {
            throw URLError(.fileDoesNotExist)
        }
        let head = HTTPResponseHead(statusCode: recorded.statusCode, headers: recorded.headers, url: request.url)
        let response = HTTPResponse(head: head, body: .data(recorded.body.inlineData ?? Data()))
        onEvent?(.responseHead(head))
        onEvent?(.completed(response))
        return response
    }
}
