import CassetteBenchSupport
import Foundation
import Tapedeck
import TapedeckCassette
import TapedeckCore

/// Replays `count` distinct realistic interactions through `HTTPSessionManager.get` (base URL, query serializer, JSON
/// response serializer) and through `CassetteTransport.send` alone, in alternating blocks within one process, so that
/// the machine's drift falls on both sides alike. Each round replays every interaction once per side.
struct ClientReplay {
    let count: Int
    let block: Int
    let rounds: Int

    struct Result {
        /// Microseconds per request of each block, per side.
        var client: [Double] = []
        var transport: [Double] = []
        /// Process CPU seconds spent in each side's blocks.
        var clientCPU = 0.0
        var transportCPU = 0.0
    }

    func run() async throws -> Result {
        let replay = try RealisticReplay(count: count, label: "client-replay")
        defer { replay.remove() }
        let transport = replay.transport
        let api = HTTPSessionManager(baseURL: RealisticCassette.baseURL, transport: transport)
        let requests = (0..<count).map { index in
            HTTPRequest(url: URL(string: RealisticCassette.url(index))!, headers: RealisticCassette.requestHeaders(index))
        }
        var result = Result()
        // Round 0 warms both sides up and is not counted.
        for round in 0...rounds {
            for start in stride(from: 0, to: count, by: block) {
                let range = start..<min(count, start + block)
                let clientStart = (ContinuousClock.now, Self.cpuSeconds())
                for index in range {
                    let response = try await api.get(RealisticCassette.path(index), parameters: ["page": .number(Double(RealisticCassette.page(index))), "sort": "name"])
                    guard response.value != nil else { throw BenchFailure("interaction \(index) gave no JSON") }
                }
                let transportStart = (ContinuousClock.now, Self.cpuSeconds())
                for index in range {
                    let response = try await transport.send(requests[index])
                    guard response.statusCode == 200 else { throw BenchFailure("interaction \(index) answered \(response.statusCode)") }
                }
                let end = (ContinuousClock.now, Self.cpuSeconds())
                guard round > 0 else { continue }
                result.client.append(Self.microseconds(transportStart.0 - clientStart.0) / Double(range.count))
                result.transport.append(Self.microseconds(end.0 - transportStart.0) / Double(range.count))
                result.clientCPU += transportStart.1 - clientStart.1
                result.transportCPU += end.1 - transportStart.1
            }
        }
        return result
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
