import Foundation
import Testing
import TapedeckTestSupport

/// Runs the built `tapedeck` binary and compares its output with golden files.
enum CLIRunner {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `tapedeck` executable: next to the test bundle, else in the package's `.build/debug`.
    static let executable = ServingCommand.tapedeck

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `tapedeck arguments…` in `directory` with `NO_COLOR` and `environment` set (over the test's own
    /// environment, without its `TAPEDECK_SECRET_` variables), and waits (at most 60 s) for it to exit.
    static func run(_ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:]) async throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "TAPEDECK_RECORD_MODE")
        environment = environment.filter { !$0.key.hasPrefix("TAPEDECK_SECRET_") }.merging(extra) { $1 }
        // A command that does not end by itself (a serve that should have refused its input) is stopped after five
        // minutes, so the test fails instead of the suite hanging on its output. A safety net, never a verdict on
        // speed: a sanitizer-built command on a busy machine may well take a minute.
        let output = try await ExternalCommand.run(executable, arguments, environment: environment, in: directory, timeLimit: 300)
        return Result(status: output.status, stdout: String(decoding: output.standardOutput, as: UTF8.self),
                      stderr: output.standardError)
    }

    /// Starts `tapedeck arguments…` (a command that serves until stopped), waits at most 20 s for its
    /// "Press Ctrl-C" line and returns the process, its output pipe and the last `http://127.0.0.1:PORT` it printed
    /// (empty when none came).
    static func startServing(_ arguments: [String]) async throws -> (process: ChildProcess, output: Pipe, baseURL: String) {
        let served = try await launch(arguments)
        return (served.process, served.output, served.baseURL)
    }

    /// A serving command started by ``launch(_:)``.
    typealias Served = ServingCommand

    /// Starts `tapedeck arguments…` and reads its output until the "Press Ctrl-C" line (at most 20 s); its standard
    /// error goes to `errors` when given.
    static func launch(_ arguments: [String], errors: Pipe? = nil) async throws -> Served {
        try await ServingCommand.launch(executable, arguments, errors: errors)
    }

    /// `text` with the temporary folder, ports and timings replaced by placeholders.
    static func mask(_ text: String, folder: URL? = nil) -> String {
        var result = text
        if let folder { result = result.replacingOccurrences(of: folder.path, with: "$TMP") }
        result = result.replacingOccurrences(of: #"127\.0\.0\.1:\d+"#, with: "127.0.0.1:PORT", options: .regularExpression)
        result = result.replacingOccurrences(of: #"time="\d+\.\d+""#, with: #"time="T""#, options: .regularExpression)
        result = result.replacingOccurrences(of: #"recorded \d+ days ago"#, with: "recorded N days ago", options: .regularExpression)
        result = result.replacingOccurrences(of: #"\d+ ms"#, with: "T ms", options: .regularExpression)
        return result
    }

    /// Compares `actual` with `Golden/<name>`; with `TAPEDECK_UPDATE_GOLDEN=1` rewrites the file instead.
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
        if ProcessInfo.processInfo.environment["TAPEDECK_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden file \(url.path); run with TAPEDECK_UPDATE_GOLDEN=1 to create it", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
    }
}
