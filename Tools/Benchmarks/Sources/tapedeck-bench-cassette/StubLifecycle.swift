import Foundation
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// What a per-test stub server costs (J4 item 4): `count` start + stop pairs of a `StubServer` with one stub, and
/// `count` more with one GET answered in between (over one long-lived `CurlTransport`, so each GET opens a connection
/// to the new server, as a test's first request does). Blocks of the two kinds alternate; each block's median is one
/// sample, and the medians of those are reported in microseconds.
struct StubLifecycle {
    let count: Int
    let blocks = 10

    struct Result {
        var bare: [Double] = []
        var withRequest: [Double] = []
        /// Of the blocks with a GET: the medians of the start, the GET and the stop alone.
        var parts: [[Double]] = [[], [], []]
    }

    func run() async throws -> Result {
        let client = CurlTransport()
        let perBlock = max(1, count / blocks)
        var result = Result()
        // Warm: the first server and the first connection pay one-time costs (loading, thread stacks).
        _ = try await once(request: client)
        for block in 0..<blocks * 2 {
            let withRequest = block % 2 == 1
            var times: [[Double]] = [[], [], [], []]
            for _ in 0..<perBlock {
                for (index, time) in try await once(request: withRequest ? client : nil).enumerated() { times[index].append(time) }
            }
            if withRequest {
                result.withRequest.append(median(times[0]))
                for part in 0..<3 { result.parts[part].append(median(times[part + 1])) }
            } else {
                result.bare.append(median(times[0]))
            }
        }
        return result
    }

    /// One server started and stopped, with a GET in between when `request` is given: the whole, the start, the GET
    /// and the stop, in microseconds.
    private func once(request client: CurlTransport?) async throws -> [Double] {
        let start = ContinuousClock.now
        let server = try StubServer()
        server.route(.get, "/ok", response: .text("ok"))
        let started = ContinuousClock.now
        if let client {
            let response = try await client.send(HTTPRequest(url: server.url("/ok")))
            guard response.statusCode == 200 else { throw BenchFailure("GET /ok answered \(response.statusCode)") }
        }
        let answered = ContinuousClock.now
        server.stop()
        let end = ContinuousClock.now
        return [end - start, started - start, answered - started, end - answered].map(ClientReplay.microseconds)
    }
}
