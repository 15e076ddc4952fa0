import Benchmark
import CassetteBenchSupport
import Foundation
import Synchronization
import Tapedeck
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// State one benchmark builds in its setup hook and its iterations share.
final class CassetteFixture: @unchecked Sendable {
    // Written only in setup and teardown (before and after the iterations), read by the iterations.
    var directory: URL
    var transport: (any HTTPTransport)?
    var server: StubServer?
    var requests: [HTTPRequest] = []
    var cassette = Cassette()
    var data = Data()
    var client: HTTPSessionManager?

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-cassette-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var cassetteURL: URL { directory.appendingPathComponent("bench.json") }

    func tearDown() {
        if let transport = transport as? CassetteTransport { _ = try? transport.finish() }
        transport = nil
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

let cassetteFixture = Mutex<CassetteFixture?>(nil)

func withFixture(_ build: (CassetteFixture) throws -> Void) throws {
    let fixture = try CassetteFixture()
    try build(fixture)
    cassetteFixture.withLock { $0 = fixture }
}

func currentCassetteFixture() -> CassetteFixture {
    guard let fixture = cassetteFixture.withLock({ $0 }) else { fatalError("setup hook did not run") }
    return fixture
}

func tearDownCassetteFixture() {
    cassetteFixture.withLock { fixture in
        fixture?.tearDown()
        fixture = nil
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible { let description: String }

/// A replaying transport over a synthetic cassette of `count` interactions, and 100 requests spread over it.
func setUpReplay(count: Int) throws {
    try withFixture { fixture in
        try CassetteFile.save(SyntheticCassette.make(count: count), to: fixture.cassetteURL)
        fixture.transport = try CassetteTransport(
            cassette: fixture.cassetteURL, mode: .replay,
            configuration: CassetteConfiguration(allowPlaybackRepeats: true), environment: [:])
        fixture.requests = (0..<100).map { slot in
            HTTPRequest(url: URL(string: SyntheticCassette.url(slot * count / 100))!,
                        headers: ["Accept": "application/json", "User-Agent": "tapedeck-bench/1"])
        }
    }
}

/// A replaying transport and a client over it, on 10,000 realistic interactions, and each interaction's request.
func setUpRealisticReplay() throws {
    try withFixture { fixture in
        try CassetteFile.save(RealisticCassette.make(count: 10_000), to: fixture.cassetteURL)
        let transport = try CassetteTransport(
            cassette: fixture.cassetteURL, mode: .replay,
            configuration: CassetteConfiguration(allowPlaybackRepeats: true), environment: [:])
        fixture.transport = transport
        fixture.client = HTTPSessionManager(baseURL: RealisticCassette.baseURL, transport: transport)
        fixture.requests = (0..<10_000).map { index in
            HTTPRequest(url: URL(string: RealisticCassette.url(index))!, headers: RealisticCassette.requestHeaders(index))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .throughput], warmupIterations: 100,
                                           scalingFactor: .one, maxDuration: .seconds(4), maxIterations: 100_000)

    // One request replayed per iteration through CassetteTransport.send: the index makes the cost independent of
    // the cassette's size. The 100 requests cycle, so after the warm-up every play repeats (allowPlaybackRepeats):
    // the same code path at every size. First plays are measured by compare-vcrpy.sh (tapedeck-bench-cassette replay).
    for count in [100, 10_000, 100_000] {
        Benchmark("Cassette replay 1 request (\(count) interactions)", configuration: Benchmark.defaultConfiguration, closure: { benchmark in
            let fixture = currentCassetteFixture()
            guard let transport = fixture.transport else { throw BenchmarkFailure(description: "no transport") }
            var slot = 0
            for _ in benchmark.scaledIterations {
                let response = try await transport.send(fixture.requests[slot])
                blackHole(response)
                slot = slot == 99 ? 0 : slot + 1
            }
        }, setup: { try setUpReplay(count: count) }, teardown: { tearDownCassetteFixture() })
    }

    // Realistic interactions (RealisticCassette: a query, eight headers each way, ~300 bytes of JSON), 10,000 of
    // them, each replayed in turn: through the client stack (HTTPSessionManager.get with its JSON serializer) and
    // through the transport alone. Tools/bench/client-replay.sh compares the two in one process, interleaved.
    Benchmark("Client replay (HTTPSessionManager.get, 10,000 realistic)", configuration: Benchmark.defaultConfiguration, closure: { benchmark in
        let fixture = currentCassetteFixture()
        guard let client = fixture.client else { throw BenchmarkFailure(description: "no client") }
        var index = 0
        for _ in benchmark.scaledIterations {
            let result = try await client.get(RealisticCassette.path(index), parameters: ["page": .number(Double(RealisticCassette.page(index))), "sort": "name"])
            blackHole(result)
            index = index == 9_999 ? 0 : index + 1
        }
    }, setup: { try setUpRealisticReplay() }, teardown: { tearDownCassetteFixture() })

    Benchmark("Transport replay (CassetteTransport.send, 10,000 realistic)", configuration: Benchmark.defaultConfiguration, closure: { benchmark in
        let fixture = currentCassetteFixture()
        guard let transport = fixture.transport else { throw BenchmarkFailure(description: "no transport") }
        var index = 0
        for _ in benchmark.scaledIterations {
            blackHole(try await transport.send(fixture.requests[index]))
            index = index == 9_999 ? 0 : index + 1
        }
    }, setup: { try setUpRealisticReplay() }, teardown: { tearDownCassetteFixture() })

    let fileConfiguration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1,
                                                    maxDuration: .seconds(10), maxIterations: 20)
    Benchmark("Cassette load (10,000 interactions)", configuration: fileConfiguration, closure: { benchmark in
        let url = currentCassetteFixture().cassetteURL
        for _ in benchmark.scaledIterations {
            let cassette = try CassetteFile.load(url)
            guard cassette.interactions.count == 10_000 else { throw BenchmarkFailure(description: "loaded \(cassette.interactions.count)") }
            blackHole(cassette)
        }
    }, setup: { try withFixture { try CassetteFile.save(SyntheticCassette.make(count: 10_000), to: $0.cassetteURL) } },
       teardown: { tearDownCassetteFixture() })

    Benchmark("Cassette save (10,000 interactions)", configuration: fileConfiguration, closure: { benchmark in
        let fixture = currentCassetteFixture()
        for _ in benchmark.scaledIterations {
            try CassetteFile.save(fixture.cassette, to: fixture.cassetteURL)
        }
    }, setup: { try withFixture { $0.cassette = SyntheticCassette.make(count: 10_000) } }, teardown: { tearDownCassetteFixture() })

    // Recording versus passthrough: one POST per iteration to a stub server over CurlTransport, 10,000 iterations.
    // The recording transport redacts, encodes and journals each interaction before `send` returns.
    let networkConfiguration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 0,
                                                       maxDuration: .seconds(120), maxIterations: 10_000)
    for recording in [false, true] {
        let name = recording ? "Record 10,000 interactions (CassetteTransport .all → StubServer)"
            : "Passthrough 10,000 requests (CassetteTransport .passthrough → StubServer)"
        Benchmark(name, configuration: networkConfiguration, closure: { benchmark in
            let fixture = currentCassetteFixture()
            guard let transport = fixture.transport, let server = fixture.server else { throw BenchmarkFailure(description: "no fixture") }
            var index = 0
            let body = Data(#"{"sku":"A-1","quantity":2,"note":"benchmark"}"#.utf8)
            for _ in benchmark.scaledIterations {
                let request = HTTPRequest(method: .post, url: server.url("/orders/\(index)"), headers: ["Content-Type": "application/json"], body: .data(body))
                let response = try await transport.send(request)
                guard response.statusCode == 200 else { throw BenchmarkFailure(description: "status \(response.statusCode)") }
                index += 1
            }
        }, setup: {
            try withFixture { fixture in
                let server = try StubServer(configuration: .init(journalCapacity: 16))
                server.route(.post, "/orders/{id}") { request in
                    .json(Data(#"{"accepted":true,"bytes":\#(request.body.count)}"#.utf8))
                }
                fixture.server = server
                fixture.transport = try CassetteTransport(
                    cassette: fixture.cassetteURL, mode: recording ? .all : .passthrough, upstream: CurlTransport(), environment: [:])
            }
        }, teardown: { tearDownCassetteFixture() })
    }
}
