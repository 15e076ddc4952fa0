import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// Helper for Tools/bench/proxy.sh: the forward proxy's replay throughput and its cost of a new intercepted host.
///
///     tapedeck-bench-proxy throughput PAIRS REQUESTS
///         REQUESTS replayed over 4 keep-alive connections, in interleaved pairs: the stub server serving the
///         cassette over plain HTTP, then the forward proxy replaying it over HTTPS (order alternating per pair).
///         Prints each pair's requests per second and CPU per request, then the ratio proxy / stub server.
///     tapedeck-bench-proxy handshake PAIRS -
///         Fresh clients' first request through the replaying proxy: to a host never seen (CONNECT, leaf issuance,
///         TLS daemons, handshake) against a new connection to a host already intercepted (CONNECT, handshake),
///         in interleaved pairs; then a keep-alive request for reference.
let arguments = CommandLine.arguments
guard arguments.count == 4, let pairs = Int(arguments[2]), pairs >= 1 else {
    FileHandle.standardError.write(Data("usage: tapedeck-bench-proxy throughput PAIRS REQUESTS | handshake PAIRS -\n".utf8))
    exit(2)
}

let connections = 4
let recordedItems = 50

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}

/// Records `recordedItems` 1 KiB answers of `https://api.example.test/item/N` from a local HTTPS upstream.
func recordCassette(into file: URL) async throws {
    let upstream = try StubServer.https(hostNames: ["api.example.test"])
    defer { upstream.stop() }
    let body = String(repeating: "x", count: 1024)
    upstream.route(.get, "/item/{n}") { _ in .text(body) }
    let curl = CurlTransport(configuration: .init(connectTo: ["api.example.test:443:127.0.0.1:\(upstream.port)"],
                                                  trustedCertificates: upstream.configuration.trustedCertificates, proxy: ""))
    let recorder = try CassetteTransport(cassette: file, mode: .all, upstream: curl, environment: [:])
    for item in 0..<recordedItems {
        _ = try await recorder.send(HTTPRequest(url: URL(string: "https://api.example.test/item/\(item)")!))
    }
    _ = try recorder.finish()
}

/// Sends `total` requests for `url(i)` over `connections` concurrent sequences; returns requests per second and CPU
/// seconds per request.
func measure(_ client: CurlTransport, total: Int, url: @escaping @Sendable (Int) -> URL) async throws -> (rate: Double, cpu: Double) {
    let perConnection = max(1, total / connections)
    let cpuStart = cpuSeconds()
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for lane in 0..<connections {
            group.addTask {
                for index in 0..<perConnection {
                    let response = try await client.send(HTTPRequest(url: url((lane * perConnection + index) % recordedItems)))
                    guard response.statusCode == 200, response.data?.count == 1024 else {
                        throw BenchFailure(description: "unexpected answer \(response.statusCode) for \(url(index))")
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = seconds(start.duration(to: .now))
    let requests = Double(perConnection * connections)
    return (requests / elapsed, (cpuSeconds() - cpuStart) / requests)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func summary(_ values: [Double]) -> String {
    String(format: "median %.3f (min %.3f, max %.3f, %d pairs)", median(values), values.min() ?? 0, values.max() ?? 0, values.count)
}

func throughput(pairs: Int, requests: Int) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-bench-proxy-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("items.json")
    try await recordCassette(into: file)
    let replay = CassetteConfiguration(allowPlaybackRepeats: true)

    let server = try StubServer(cassette: file, cassetteConfiguration: replay)
    defer { server.stop() }
    let proxy = try ForwardProxy(cassette: file, mode: .replay, configuration: .init(cassette: replay, environment: [:]))
    defer { proxy.stop() }
    let plainClient = CurlTransport(configuration: .init(proxy: ""))
    let proxyClient = CurlTransport(configuration: .init(trustedCertificates: [proxy.certificateAuthority.trustAnchor],
                                                         proxy: proxy.proxyURL.absoluteString))
    let base = server.baseURL.absoluteString
    let plainURL: @Sendable (Int) -> URL = { URL(string: "\(base)/item/\($0)")! }
    let proxiedURL: @Sendable (Int) -> URL = { URL(string: "https://api.example.test/item/\($0)")! }
    // Warm up: open every keep-alive connection (and the proxy's tunnel daemons) before timing.
    _ = try await measure(plainClient, total: connections * 8, url: plainURL)
    _ = try await measure(proxyClient, total: connections * 8, url: proxiedURL)

    var ratios: [Double] = [], cpuRatios: [Double] = []
    for pair in 1...pairs {
        var stub = (rate: 0.0, cpu: 0.0), proxied = (rate: 0.0, cpu: 0.0)
        if pair % 2 == 1 {
            stub = try await measure(plainClient, total: requests, url: plainURL)
            proxied = try await measure(proxyClient, total: requests, url: proxiedURL)
        } else {
            proxied = try await measure(proxyClient, total: requests, url: proxiedURL)
            stub = try await measure(plainClient, total: requests, url: plainURL)
        }
        ratios.append(proxied.rate / stub.rate)
        cpuRatios.append(proxied.cpu / stub.cpu)
        print(String(format: "pair %d: stub server HTTP %.0f req/s (%.0f us CPU/req), proxy HTTPS %.0f req/s (%.0f us CPU/req), ratio %.3f",
                     pair, stub.rate, stub.cpu * 1e6, proxied.rate, proxied.cpu * 1e6, proxied.rate / stub.rate))
    }
    print("throughput proxy HTTPS / stub server HTTP: " + summary(ratios))
    print("CPU per request proxy HTTPS / stub server HTTP: " + summary(cpuRatios))
}

/// The time of one request from a fresh client through `proxy` to `host`.
func firstRequest(through proxy: ForwardProxy, host: String) async throws -> Double {
    let client = CurlTransport(configuration: .init(trustedCertificates: [proxy.certificateAuthority.trustAnchor],
                                                    proxy: proxy.proxyURL.absoluteString))
    let start = ContinuousClock.now
    let response = try await client.send(HTTPRequest(url: URL(string: "https://\(host)/item/0")!))
    let elapsed = seconds(start.duration(to: .now))
    guard response.statusCode == 200 else { throw BenchFailure(description: "unexpected \(response.statusCode) from \(host)") }
    return elapsed
}

func handshake(pairs: Int) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-bench-proxy-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("items.json")
    try await recordCassette(into: file)
    // Every host answers from the one recorded interaction: matching ignores the host.
    let replay = CassetteConfiguration(matching: [.method, .path], allowPlaybackRepeats: true)
    let proxy = try ForwardProxy(cassette: file, mode: .replay, configuration: .init(cassette: replay, environment: [:]))
    defer { proxy.stop() }
    _ = try await firstRequest(through: proxy, host: "api.example.test")
    var newHost: [Double] = [], knownHost: [Double] = [], differences: [Double] = []
    for pair in 1...pairs {
        let host = "h\(pair).example.test"
        var fresh = 0.0, known = 0.0
        if pair % 2 == 1 {
            fresh = try await firstRequest(through: proxy, host: host)
            known = try await firstRequest(through: proxy, host: "api.example.test")
        } else {
            known = try await firstRequest(through: proxy, host: "api.example.test")
            fresh = try await firstRequest(through: proxy, host: host)
        }
        newHost.append(fresh * 1000)
        knownHost.append(known * 1000)
        differences.append((fresh - known) * 1000)
    }
    let client = CurlTransport(configuration: .init(trustedCertificates: [proxy.certificateAuthority.trustAnchor],
                                                    proxy: proxy.proxyURL.absoluteString))
    var kept: [Double] = []
    for _ in 0..<(pairs + 1) {
        let start = ContinuousClock.now
        _ = try await client.send(HTTPRequest(url: URL(string: "https://api.example.test/item/0")!))
        kept.append(seconds(start.duration(to: .now)) * 1000)
    }
    print("first request to a new host (ms), leaf issued and daemons started: " + summary(newHost))
    print("first request of a new connection to a known host (ms): " + summary(knownHost))
    print("new host minus known host (ms), the leaf and daemons alone: " + summary(differences))
    print("keep-alive request to a known host (ms): " + summary(Array(kept.dropFirst())))
}

let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var failure: (any Error)?
// Detached: top-level code runs on the main actor, whose thread waits on the semaphore.
Task.detached {
    do {
        switch arguments[1] {
        case "throughput": try await throughput(pairs: pairs, requests: Int(arguments[3]) ?? 2000)
        case "handshake": try await handshake(pairs: pairs)
        default: throw BenchFailure(description: "unknown measurement \(arguments[1])")
        }
    } catch {
        failure = error
    }
    done.signal()
}
done.wait()
if let failure {
    FileHandle.standardError.write(Data("tapedeck-bench-proxy: \(failure)\n".utf8))
    exit(1)
}
