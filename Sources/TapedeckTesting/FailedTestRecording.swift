import Foundation
import TapedeckCassette

/// What happens to what a test recorded when the test fails: a flaky `500`, a wrong assertion or an unmatched
/// request should not become the committed cassette.
///
/// The cassette traits and `withCassette` apply it when the test recorded something (the cassette file or its
/// sidecar bodies changed) and failed: in Swift Testing, an issue that is a failure (known issues and warnings do
/// not count) or an error thrown out of the test; in XCTest, a failure recorded while the body ran, or an error it
/// threw; in both, a failure the cassette reports. What was done is reported with the test's issues (a warning in
/// Swift Testing, a log line in XCTest).
///
/// ```swift
/// @Test(.cassette(mode: .once, onTestFailure: .keepAsFailed))
/// func loadsTheProfile() async throws { … }
/// // a failing run leaves Cassettes/…/loadsTheProfile.failed.json and no loadsTheProfile.json
/// ```
public enum FailedTestRecording: Sendable, Hashable {
    /// The recording is thrown away: the cassette is left as it was before the test (or absent), and new sidecar
    /// bodies are removed. The default.
    case discard
    /// The recording stays in the cassette, as if the test had passed.
    case keep
    /// The recording moves to `<name>.failed.json` beside the cassette (replacing an earlier one), for inspection;
    /// the cassette is left as it was.
    case keepAsFailed

    /// `<name>.failed.json` beside `cassette`.
    public static func failedURL(for cassette: URL) -> URL {
        cassette.deletingPathExtension().appendingPathExtension("failed").appendingPathExtension("json")
    }
}

/// A cassette file and its sidecar folder as they were before a test, to put back when the test fails.
struct RecordingSnapshot {
    let cassette: URL
    /// The cassette's bytes, or `nil` when there was no cassette.
    let bytes: Data?
    /// The names in `<name>.bodies/` (empty when there was no such folder).
    let sidecars: Set<String>

    var sidecarFolder: URL {
        cassette.deletingLastPathComponent().appendingPathComponent(cassette.deletingPathExtension().lastPathComponent + ".bodies")
    }

    /// Reads the cassette as it is now.
    init(of cassette: URL) {
        self.cassette = cassette
        bytes = try? Data(contentsOf: cassette)
        sidecars = Self.names(in: cassette.deletingLastPathComponent()
            .appendingPathComponent(cassette.deletingPathExtension().lastPathComponent + ".bodies"))
    }

    /// Whether the cassette or its sidecar folder changed since the snapshot.
    var changed: Bool {
        (try? Data(contentsOf: cassette)) != bytes || Self.names(in: sidecarFolder) != sidecars
    }

    /// Applies `rule` to a failed test's recording and says what was done, or `nil` when nothing was recorded.
    func apply(_ rule: FailedTestRecording) -> String? {
        guard changed else { return nil }
        let name = cassette.path
        do {
            switch rule {
            case .keep:
                return "the test failed; its recording was kept in \(name) (FailedTestRecording.keep)"
            case .discard:
                try restore(removingNewSidecars: true)
                return "the test failed; its recording was discarded and \(name) left as it was before the test "
                    + "(choose .keepAsFailed to inspect it)"
            case .keepAsFailed:
                let failed = FailedTestRecording.failedURL(for: cassette)
                if FileManager.default.fileExists(atPath: cassette.path) {
                    try? FileManager.default.removeItem(at: failed)
                    try FileManager.default.copyItem(at: cassette, to: failed)
                }
                try restore(removingNewSidecars: false)
                return "the test failed; its recording was kept as \(failed.path) and \(name) left as it was before the test"
            }
        } catch {
            return "the test failed, but its recording in \(name) could not be set aside: \(error)"
        }
    }

    /// Puts the cassette back as it was (removing it when there was none); with `removingNewSidecars`, removes
    /// sidecar bodies that appeared since, and their folder when it is left empty and was not there before.
    private func restore(removingNewSidecars: Bool) throws {
        if let bytes {
            try bytes.write(to: cassette, options: .atomic)
        } else if FileManager.default.fileExists(atPath: cassette.path) {
            try FileManager.default.removeItem(at: cassette)
        }
        guard removingNewSidecars else { return }
        for added in Self.names(in: sidecarFolder).subtracting(sidecars) {
            try? FileManager.default.removeItem(at: sidecarFolder.appendingPathComponent(added))
        }
        if sidecars.isEmpty, Self.names(in: sidecarFolder).isEmpty { try? FileManager.default.removeItem(at: sidecarFolder) }
    }

    private static func names(in folder: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }
}
