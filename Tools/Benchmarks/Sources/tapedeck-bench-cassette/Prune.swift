import CassetteBenchSupport
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl

/// A `count`-interaction synthetic cassette opened in `.newEpisodes` with `pruneUnplayed`, every other interaction
/// replayed, then finished: the time of `finish()`, which drops the unplayed half and rewrites the file.
struct Prune {
    let count: Int

    func run() async throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-prune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("prune.json")
        try CassetteFile.save(SyntheticCassette.make(count: count), to: file)
        let transport = try CassetteTransport(
            cassette: file, mode: .newEpisodes, upstream: CurlTransport(),
            configuration: CassetteConfiguration(pruneUnplayed: true), environment: [:])
        for index in stride(from: 0, to: count, by: 2) {
            _ = try await transport.send(HTTPRequest(url: URL(string: SyntheticCassette.url(index))!))
        }
        let start = ContinuousClock.now
        let summary = try transport.finish()
        let elapsed = ClientReplay.microseconds(ContinuousClock.now - start) / 1e6
        guard summary.pruned.count == count / 2 else { throw BenchFailure("pruned \(summary.pruned.count) of \(count)") }
        return elapsed
    }
}
