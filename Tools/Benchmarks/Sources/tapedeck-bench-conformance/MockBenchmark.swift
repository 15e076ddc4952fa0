import Foundation
import TapedeckCassette
import TapedeckConformance
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// The OpenAPI mock's cost: requests answered per second in process (validation, lookup and the prepared value), and
/// over loopback against the stub server answering the same JSON from a fixed stub, in interleaved pairs of REQUESTS
/// sequential GETs each (the ratio is mock time over fixed-stub time: 1.0 means the mock costs nothing extra).
struct MockBenchmark {
    let contract: OpenAPIConformance
    let requests: Int
    let pairs: Int

    func run() async throws {
        let mock = OpenAPIMock(contract, seed: 1)
        precondition(mock.problems.isEmpty, "\(mock.problems)")
        let paths = (0..<requests).map { "/v1/resources\($0 % 50)/\($0 + 1)?fields=name" }
        let probe = mock.respond(to: Interaction.Request(method: "GET", url: paths[0]))
        precondition(probe.statusCode == 200, "\(probe)")

        var rates: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for path in paths { precondition(mock.respond(to: Interaction.Request(method: "GET", url: path)).statusCode == 200) }
            rates.append(Double(paths.count) / seconds(ContinuousClock.now - start))
        }
        rates.sort()
        print(String(format: "mock in process: %d requests x 5 rounds: median %.0f/s (min %.0f, max %.0f) on one thread",
                     requests, rates[2], rates[0], rates[4]))

        let mocked = try StubServer()
        mocked.serve(mock)
        let fixed = try StubServer()
        fixed.add(Stub(RequestPattern(.get), response: StubResponse(status: 200, headers: probe.headers, body: .data(probe.body.inlineData ?? Data()))))
        defer { mocked.stop(); fixed.stop() }
        let client = CurlTransport()
        var ratios: [Double] = []
        for pair in 0..<pairs {
            // Alternate which goes first, so drift in the machine's load falls on both.
            let order = pair % 2 == 0 ? [mocked, fixed] : [fixed, mocked]
            var times: [ObjectIdentifier: Double] = [:]
            for server in order { times[ObjectIdentifier(server)] = try await time(paths, on: server, client: client) }
            ratios.append(times[ObjectIdentifier(mocked)]! / times[ObjectIdentifier(fixed)]!)
        }
        ratios.sort()
        print(String(format: "mock over loopback / fixed stub: %d pairs of %d GETs: median ratio %.2f (min %.2f, max %.2f)",
                     pairs, requests, ratios[pairs / 2], ratios[0], ratios[pairs - 1]))
    }

    private func time(_ paths: [String], on server: StubServer, client: CurlTransport) async throws -> Double {
        let start = ContinuousClock.now
        for path in paths {
            let response = try await client.send(HTTPRequest(url: URL(string: server.baseURL.absoluteString + path)!))
            precondition(response.statusCode == 200)
        }
        return seconds(ContinuousClock.now - start)
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
