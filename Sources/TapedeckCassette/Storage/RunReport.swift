import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which interactions of which cassettes a test run played, one JSON line per finished cassette transport, so a
/// suite whose tests share a cassette can prune what none of them used (`tapedeck prune CASSETTE --unused-in
/// REPORT`). TapedeckTesting appends a line for every cassette a test finishes when `TAPEDECK_RUN_REPORT` names a
/// file.
///
/// ```sh
/// TAPEDECK_RUN_REPORT=/tmp/run.jsonl swift test && tapedeck prune Cassettes/Shared/api.json --unused-in /tmp/run.jsonl
/// ```
public enum RunReport {
    /// The environment variable naming the report file.
    public static let environmentVariable = "TAPEDECK_RUN_REPORT"

    /// One finished cassette transport.
    struct Line: Codable {
        /// The cassette's absolute path.
        var cassette: String
        /// How many interactions it had when the transport finished.
        var interactions: Int
        /// The positions played (recordings of the run included).
        var played: [Int]
    }

    /// Appends the line for `summary` to `report` (created if missing; one `write` in append mode, so concurrent
    /// tests do not interleave lines).
    public static func append(_ summary: CassetteSummary, to report: URL) throws(CassetteError) {
        let line = Line(cassette: URL(fileURLWithPath: summary.file).standardizedFileURL.path,
                        interactions: summary.interactionCount, played: summary.played)
        var bytes: Data
        do { bytes = try JSONEncoder().encode(line) } catch {
            throw CassetteError.io(file: report.path, operation: "encode a run report line for", reason: "\(error)")
        }
        bytes.append(0x0A)
        let fd = open(report.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CassetteError.io(file: report.path, operation: "open", reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw CassetteError.io(file: report.path, operation: "append to", reason: String(cString: strerror(errno)))
        }
    }

    /// The positions of `cassette` that any run in `report` played.
    ///
    /// - Throws: ``CassetteError`` when the report cannot be read, has a line that is not a report line (naming
    ///   it), never mentions the cassette, or was made while the cassette had another number of interactions
    ///   (positions would then point at the wrong interactions).
    public static func played(in report: URL, cassette: URL, interactionCount: Int) throws(CassetteError) -> Set<Int> {
        let text: String
        do { text = try String(contentsOf: report, encoding: .utf8) } catch {
            throw CassetteError.io(file: report.path, operation: "read the run report", reason: "\(error)")
        }
        let path = cassette.standardizedFileURL.path
        var played = Set<Int>()
        var mentioned = false
        for (number, line) in text.split(separator: "\n").enumerated() where !line.allSatisfy(\.isWhitespace) {
            guard let entry = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else {
                throw CassetteError.invalidFormat(file: report.path, path: "line \(number + 1)",
                                                  reason: "not a run report line ({\"cassette\": …, \"interactions\": …, \"played\": […]})")
            }
            guard entry.cassette == path else { continue }
            guard entry.interactions == interactionCount else {
                throw CassetteError.invalidFormat(
                    file: report.path, path: "line \(number + 1)",
                    reason: "the run saw \(entry.interactions) interactions in \(path), which has \(interactionCount) now; "
                        + "positions would point at the wrong ones, so nothing is pruned (make a new report)")
            }
            mentioned = true
            played.formUnion(entry.played)
        }
        guard mentioned else {
            throw CassetteError.invalidFormat(file: report.path, path: "", reason: "no run in the report used \(path)")
        }
        return played
    }
}
