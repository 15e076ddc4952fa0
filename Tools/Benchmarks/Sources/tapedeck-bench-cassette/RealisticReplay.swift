import CassetteBenchSupport
import Foundation
import TapedeckCassette

/// `RealisticCassette` written to a fresh temporary folder and opened for replay (repeats allowed), for the
/// benchmarks that replay it through one client or another. Call ``remove()`` when done.
struct RealisticReplay {
    let directory: URL
    let transport: CassetteTransport

    /// `count` realistic interactions, changed by `edit` before they are written.
    init(count: Int, label: String, edit: (inout Cassette) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("realistic.json")
        var cassette = RealisticCassette.make(count: count)
        edit(&cassette)
        try CassetteFile.save(cassette, to: file)
        transport = try CassetteTransport(
            cassette: file, mode: .replay, configuration: CassetteConfiguration(allowPlaybackRepeats: true), environment: [:])
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
