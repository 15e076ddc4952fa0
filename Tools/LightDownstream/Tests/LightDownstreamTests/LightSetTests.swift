import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckCassette
import TapedeckTesting
import TapedeckURLSession
import Testing

/// What a team that records through URLSession and replays in CI does, with nothing but the light set.
struct LightSetTests {
    /// A loopback HTTP server that check.sh starts (`python3 -m http.server`), serving this folder's `greeting.txt`.
    static var origin: URL? {
        ProcessInfo.processInfo.environment["LIGHT_DOWNSTREAM_ORIGIN"].flatMap(URL.init(string:))
    }

    @Test func recordsThroughURLSessionThenReplaysWithTheServerGone() async throws {
        let origin = try #require(Self.origin, "run through check.sh, which starts the local server")
        let cassette = FileManager.default.temporaryDirectory.appendingPathComponent("light-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: cassette) }
        let url = origin.appendingPathComponent("greeting.txt")
        // Recording: no upstream given and no stub server, so the scope records through URLSessionTransport.
        let recorded = try await CassetteScope(cassette: cassette, mode: .once, environment: [:]).run { transport in
            let session = URLSession(configuration: .tapedeck(transport: transport))
            let (data, response) = try await session.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hello from the light set\n")
        }
        #expect(recorded.isEmpty, "\(recorded)")
        // Replay: the cassette answers; a request it lacks fails instead of reaching the network.
        let replayed = try await CassetteScope(cassette: cassette, mode: .replay, environment: [:]).run { transport in
            let session = URLSession(configuration: .tapedeck(transport: transport))
            let (data, _) = try await session.data(from: url)
            #expect(String(decoding: data, as: UTF8.self) == "hello from the light set\n")
        }
        #expect(replayed.isEmpty, "\(replayed)")
    }

    @Test(.cassette("greeting"))
    func replaysACommittedCassetteThroughBothDoors() async throws {
        let url = URL(string: "https://api.example.test/v1/greeting")!
        let direct = try await TapedeckTest.transport.send(HTTPRequest(url: url))
        #expect(direct.statusCode == 200)
        let session = URLSession(configuration: .tapedeck(transport: TapedeckTest.transport))
        let (data, response) = try await session.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == direct.data)
    }
}
