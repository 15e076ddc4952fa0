import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// A 4 MiB in-memory `PUT` to an in-process StubServer: sent live, recorded into a fresh cassette (the same request
/// through `CassetteTransport` in `.all` mode, over the same CurlTransport), and replayed from that cassette. The
/// three run in turn `pairs` times; each live/recorded pair gives a ratio.
struct LargePut {
    let pairs: Int
    static let size = 4 << 20

    struct Result {
        var live: [Double] = []
        var record: [Double] = []
        var replay: [Double] = []
    }

    func run() async throws -> Result {
        let server = try StubServer()
        defer { server.stop() }
        server.route(.put, "/upload") { request in .text("\(request.bodyLength)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-large-put-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = HTTPRequest(method: .put, url: server.url("/upload"), body: .data(Data(count: Self.size)))
        let live = CurlTransport()
        _ = try await live.send(request)  // connection and caches warm
        var result = Result()
        for pair in 0..<pairs {
            let file = directory.appendingPathComponent("put-\(pair).json")
            let recorder = try CassetteTransport(cassette: file, mode: .all, upstream: live, environment: [:])
            // Live first in even pairs, recording first in odd ones.
            for side in pair % 2 == 0 ? ["live", "record"] : ["record", "live"] {
                let start = ContinuousClock.now
                let transport: any HTTPTransport = side == "live" ? live : recorder
                let response = try await transport.send(request)
                let elapsed = ClientReplay.microseconds(ContinuousClock.now - start) / 1000
                guard response.data == Data("\(Self.size)".utf8) else { throw BenchFailure("the server did not get 4 MiB") }
                if side == "live" { result.live.append(elapsed) } else { result.record.append(elapsed) }
            }
            try recorder.finish()
            let player = try CassetteTransport(cassette: file, mode: .replay, environment: [:])
            let start = ContinuousClock.now
            let replayed = try await player.send(request)
            result.replay.append(ClientReplay.microseconds(ContinuousClock.now - start) / 1000)
            guard replayed.statusCode == 200 else { throw BenchFailure("the replay answered \(replayed.statusCode)") }
        }
        return result
    }
}
