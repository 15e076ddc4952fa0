import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import Tapedeck
import TapedeckCurl

// The four live clients in one process, interleaved (J4 item 3): `interop-bench-clients URL COUNT ROUNDS` makes, in
// each of ROUNDS rounds, COUNT sequential GETs of URL (a small JSON document on a loopback server, e.g. nginx) with
// each client in turn, the order rotated every round so no client always runs first or after the same one:
//
//   curl      `CurlTransport.send` alone, from the global executor;
//   session   `HTTPSessionManager.get` over its own `CurlTransport` with the JSON response serializer (the client
//             stack: base URL, request serializer, task, pipeline, response serializer);
//   ahc       AsyncHTTPClient, the body collected;
//   urlsession FoundationNetworking's `URLSession.data(for:)`, a default configuration.
//
// Prints a line per round and client (wall and process CPU per request), then the medians and, per round, the ratios
// the targets name: session / curl and session / ahc, as the median of the rounds with min and max.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("interop-bench-clients: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[1]), let count = Int(arguments[2]), count > 0,
      let rounds = Int(arguments[3]), rounds > 0 else {
    fail("usage: interop-bench-clients URL COUNT ROUNDS")
}

/// One client: a name and COUNT sequential GETs that check every answer.
struct Client {
    let name: String
    let run: @Sendable (Int) async throws -> Void
}

let curl = CurlTransport()
let sessionTransport = CurlTransport()
let api = HTTPSessionManager(baseURL: url.deletingLastPathComponent(), transport: sessionTransport)
let path = url.lastPathComponent
let ahc = HTTPClient(eventLoopGroupProvider: .singleton)
let urlSession = URLSession(configuration: .default)

let allClients: [Client] = [
    Client(name: "curl") { count in
        let request = HTTPRequest(url: url)
        for _ in 0..<count {
            let response = try await curl.send(request)
            guard response.statusCode == 200, response.body.byteCount > 0 else { fail("curl: \(response.statusCode)") }
        }
    },
    Client(name: "session") { count in
        for _ in 0..<count {
            let result = try await api.get(path)
            guard result.response?.statusCode == 200, result.value != nil else { fail("session: \(result)") }
        }
    },
    Client(name: "ahc") { count in
        for _ in 0..<count {
            let response = try await ahc.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .ok, body.readableBytes > 0 else { fail("ahc: \(response.status)") }
        }
    },
    Client(name: "urlsession") { count in
        for _ in 0..<count {
            let (data, response) = try await urlSession.data(for: URLRequest(url: url))
            guard (response as? HTTPURLResponse)?.statusCode == 200, !data.isEmpty else { fail("urlsession: \(response)") }
        }
    },
]

/// `ONLY=NAME` keeps one client (for a profiler: `perf record -g -- interop-bench-clients …`).
let clients = ProcessInfo.processInfo.environment["ONLY"].map { only in allClients.filter { $0.name == only } } ?? allClients
guard !clients.isEmpty else { fail("ONLY names none of curl, session, ahc, urlsession") }

/// The process's CPU time (user + system) in seconds.
func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func padded(_ name: String) -> String { name + String(repeating: " ", count: max(0, 10 - name.count)) }

// A warm-up: every client opens its connection and fills its caches.
for client in clients { try await client.run(max(count / 10, 10)) }

var wall: [String: [Double]] = [:]
var cpu: [String: [Double]] = [:]
for round in 0..<rounds {
    for offset in 0..<clients.count {
        let client = clients[(round + offset) % clients.count]
        let cpuStart = processCPU()
        let start = ContinuousClock.now
        try await client.run(count)
        let elapsed = seconds(ContinuousClock.now - start)
        let perRequest = elapsed / Double(count) * 1e6
        let cpuPerRequest = (processCPU() - cpuStart) / Double(count) * 1e6
        wall[client.name, default: []].append(perRequest)
        cpu[client.name, default: []].append(cpuPerRequest)
        print("round \(round + 1) \(padded(client.name))" + String(format: " %8.1f µs a GET, CPU %8.1f µs", perRequest, cpuPerRequest))
    }
}

for client in clients {
    print("median \(padded(client.name))" + String(format: " %8.1f µs a GET, CPU %8.1f µs", median(wall[client.name]!),
                                                   median(cpu[client.name]!)))
}
for (name, peer) in [("session", "curl"), ("session", "ahc"), ("curl", "ahc"), ("urlsession", "session")]
    where wall[name] != nil && wall[peer] != nil {
    let ratios = zip(wall[name]!, wall[peer]!).map { $0 / $1 }
    let cpuRatios = zip(cpu[name]!, cpu[peer]!).map { $0 / $1 }
    print(String(format: "ratio %@/%@ median %.3f min %.3f max %.3f cpu-median %.3f", name, peer, median(ratios),
                 ratios.min()!, ratios.max()!, median(cpuRatios)))
}
