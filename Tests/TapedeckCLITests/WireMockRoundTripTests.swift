import Foundation
import Testing
import TapedeckCassette
import TapedeckCLICore
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// A cassette exported with `WireMockExport` and read back with `WireMockMappings` answers over a socket as the
/// cassette itself does when the stub server replays it: the same status, headers and body for every request in the
/// recorded order (repeated requests through the exported scenario included), and the same transport error for a
/// recorded one.
@Suite(.serialized) struct WireMockRoundTripTests {
    static let cassette = Cassette(interactions: [
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=1"),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK",
                                     headers: ["Content-Type": "application/json", "Set-Cookie": "a=1", "set-cookie": "b=2"],
                                     body: Fixtures.json(#"{"page":1}"#))),
            recordedAt: Fixtures.date("2026-01-15T10:00:00Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=1"),
            outcome: .response(.init(statusCode: 503, reasonPhrase: "Service Unavailable", headers: ["Retry-After": "1"])),
            recordedAt: Fixtures.date("2026-01-15T10:00:01Z")),
        Interaction(
            request: .init(method: "POST", url: "http://api.example.com/users", body: Fixtures.json(#"{"name":"Bob"}"#)),
            outcome: .response(.init(statusCode: 201, reasonPhrase: "Created", headers: ["Content-Type": "application/octet-stream"],
                                     body: CassetteBody(Data([0, 159, 255])))),
            recordedAt: Fixtures.date("2026-01-15T10:00:02Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=2"),
            outcome: .response(.init(statusCode: 200, reasonPhrase: "OK", body: Fixtures.json("[]"))),
            recordedAt: Fixtures.date("2026-01-15T10:00:03Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/users?page=1"),
            outcome: .response(.init(statusCode: 200, body: Fixtures.json("third"))),
            recordedAt: Fixtures.date("2026-01-15T10:00:04Z")),
        // The two transport errors both the cassette replay and WireMock's faults reproduce.
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/reset"),
            outcome: .failure(.init(code: URLError.Code.networkConnectionLost.rawValue, message: "The network connection was lost.")),
            recordedAt: Fixtures.date("2026-01-15T10:00:05Z")),
        Interaction(
            request: .init(method: "GET", url: "http://api.example.com/empty"),
            outcome: .failure(.init(code: URLError.Code.badServerResponse.rawValue, message: "Empty reply from server")),
            recordedAt: Fixtures.date("2026-01-15T10:00:06Z")),
    ])

    /// What a client saw: status, headers (without `Date`, which differs by the second) and body, or the error.
    struct Seen: Equatable, CustomStringConvertible {
        var status: Int?
        var headers: [String] = []
        var body = Data()
        var error: String?

        var description: String {
            error ?? "\(status!) \(headers) \(String(decoding: body, as: UTF8.self))"
        }
    }

    static func send(_ interaction: Interaction, to server: StubServer) async -> Seen {
        let url = URL(string: interaction.request.url)!
        let path = (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?" + $0 } ?? "")
        let bytes = interaction.request.body.inlineData ?? Data()
        let body: HTTPRequestBody = bytes.isEmpty ? .none : .data(bytes)
        let request = HTTPRequest(method: HTTPMethod(interaction.request.method), url: server.url(path), body: body, timeoutInterval: 5)
        do {
            let response = try await server.transport().send(request)
            let headers = response.headers.filter { $0.name.lowercased() != "date" }.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
            return Seen(status: response.statusCode, headers: headers, body: response.data ?? Data())
        } catch let error as URLError {
            return Seen(error: "URLError \(error.code.rawValue)")
        } catch {
            return Seen(error: "\(error)")
        }
    }

    @Test func exportedMappingsAnswerAsTheCassetteReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Fixtures.write(Self.cassette, "api.json", in: directory.url)
        let document = WireMockExport.mappings(for: Self.cassette) { $0.inlineData ?? Data() }
        let stubs = try WireMockMappings.stubs(from: CassetteJSON.serialize(document, style: .pretty))
        #expect(stubs.count == Self.cassette.interactions.count)

        let replaying = try StubServer()
        defer { replaying.stop() }
        try replaying.serve(cassette: file)
        let stubbed = try StubServer()
        defer { stubbed.stop() }
        for stub in stubs { stubbed.add(stub) }

        for (index, interaction) in Self.cassette.interactions.enumerated() {
            let expected = await Self.send(interaction, to: replaying)
            let actual = await Self.send(interaction, to: stubbed)
            #expect(actual == expected, "interaction #\(index) \(interaction.request.method) \(interaction.request.url)")
        }
        #expect(replaying.cassetteSummary()?.playedCount == Self.cassette.interactions.count)
        let later = await Self.send(Self.cassette.interactions[0], to: stubbed)
        #expect(later.body == Data("third".utf8), "the last answer of a repeated request repeats, as WireMockExport documents")
    }
}
