import Foundation
import TapedeckCassette
import TapedeckTestSupport

/// The frozen cassettes of each format version (`Cassettes/Compatibility/v1/`), and the fixtures of shapes that
/// `tapedeck lint` reports and so stay out of `Cassettes/` (`Fixtures/Compatibility/v1/`).
enum CompatibilityCorpus {
    /// The package's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The format's JSON Schema.
    static let schema = root.appendingPathComponent("Cassettes/cassette.schema.json")
    /// The folders the corpus is in: v1, v2 (WebSocket conversations) and v3 (replay rules).
    static let folders = ["Cassettes/Compatibility/v1", "Tests/TapedeckCassetteTests/Fixtures/Compatibility/v1", "Cassettes/Compatibility/v2", "Cassettes/Compatibility/v3"]

    /// Every cassette of the corpus, by path relative to the package's root, sorted.
    static let files: [String] = folders.flatMap { folder in
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { "\(folder)/\($0)" }
    }.sorted()

    /// The absolute location of a corpus file.
    static func url(_ file: String) -> URL { root.appendingPathComponent(file) }

    /// A copy of a corpus cassette and its sidecar folder in `directory`, so that nothing a test does can touch the
    /// frozen files.
    static func copy(_ file: String, into directory: TemporaryDirectory) throws -> URL {
        let source = url(file)
        let target = directory.url.appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: target)
        let bodies = source.deletingPathExtension().lastPathComponent + ".bodies"
        let sidecars = source.deletingLastPathComponent().appendingPathComponent(bodies)
        if FileManager.default.fileExists(atPath: sidecars.path) {
            try FileManager.default.copyItem(at: sidecars, to: directory.url.appendingPathComponent(bodies))
        }
        return target
    }
}
