import CassetteBenchSupport
import Foundation
import Tapedeck
import TapedeckCassette
import TapedeckCore

/// What the session's HTTP features cost through `HTTPSessionManager.get`, over the realistic cassette, in
/// alternating blocks within one process:
/// - `defaults`: a manager as created (its cookie store on, no cache) against one with no cookie store: unused, the
///   features must cost nothing;
/// - `features`: a manager with the default cookie store and an HTTP cache that stores nothing against one with
///   neither;
/// - `cache-hits`: every request answered by a warm HTTP cache (responses fresh for an hour), against the same
///   requests replayed from the cassette with no cache.
struct ClientFeatures {
    enum Mode { case defaults, features, cacheHits }

    let mode: Mode
    let count: Int
    let block: Int
    let rounds: Int

    /// Microseconds per request of each block: the measured side, then the baseline.
    func run() async throws -> (measured: [Double], baseline: [Double]) {
        let replay = try RealisticReplay(count: count, label: "client-features") { cassette in
            guard mode == .cacheHits else { return }
            for index in cassette.interactions.indices {
                guard case .response(var response) = cassette.interactions[index].outcome else { continue }
                response.headers["Cache-Control"] = "private, max-age=3600"
                response.headers.remove(name: "Date")  // a recorded Date makes a response as old as the recording
                cassette.interactions[index].outcome = .response(response)
            }
        }
        defer { replay.remove() }
        let transport = replay.transport
        let measured = HTTPSessionManager(baseURL: RealisticCassette.baseURL, transport: transport)
        let cache = HTTPCache(memoryCapacity: 64 << 20)
        // Unused means empty: these responses (`max-age=0`) would otherwise be stored and revalidated.
        if mode == .features { cache.willCacheResponse = { _ in nil } }
        if mode != .defaults { measured.session.cache = cache }
        let baseline = HTTPSessionManager(baseURL: RealisticCassette.baseURL, transport: transport)
        baseline.session.cookieStore = nil
        // Round 0 warms both sides (and fills the cache) and is not counted.
        return try await AlternatingBlocks.run(
            count: count, block: block, rounds: rounds,
            measured: { try await Self.get($0, from: measured) }, baseline: { try await Self.get($0, from: baseline) }
        )
    }

    /// Replays the realistic interactions of `range` through `api.get`, each answer parsed as JSON.
    static func get(_ range: Range<Int>, from api: HTTPSessionManager) async throws {
        for index in range {
            let response = try await api.get(RealisticCassette.path(index),
                                             parameters: ["page": .number(Double(RealisticCassette.page(index))), "sort": "name"])
            guard response.value != nil else { throw BenchFailure("interaction \(index) gave no JSON") }
        }
    }
}
