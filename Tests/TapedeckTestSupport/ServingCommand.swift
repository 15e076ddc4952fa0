import Foundation

/// A command-line program that serves until it is stopped (`tapedeck serve`, `tapedeck record --proxy`), started
/// by ``launch(_:_:)`` and read up to the line that says it is ready.
public struct ServingCommand: @unchecked Sendable {
    /// The running program.
    public var process: ChildProcess
    /// Its standard output, read up to ``printed``.
    public var output: Pipe
    /// The last `http://127.0.0.1:PORT` in ``printed``, or empty.
    public var baseURL: String
    /// What it printed up to its "Press Ctrl-C" line.
    public var printed: String

    /// Starts `executable arguments…` and reads its output until the "Press Ctrl-C" line (at most 20 s); its
    /// standard error goes to `errors` when given (read it after the process ends), else to the test's.
    public static func launch(_ executable: URL, _ arguments: [String], errors: Pipe? = nil) async throws -> ServingCommand {
        try await onAThreadOfItsOwn {
            let process = ChildProcess()
            process.executableURL = executable
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            if let errors { process.standardError = errors }
            try process.run()
            var text = ""
            let deadline = Date().addingTimeInterval(20)
            while !text.contains("Press Ctrl-C"), Date() < deadline {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            let matches = text.matches(of: /http:\/\/127\.0\.0\.1:\d+/).map { String($0.output) }
            return ServingCommand(process: process, output: out, baseURL: matches.last ?? "", printed: text)
        }
    }

    /// The built `tapedeck` executable: next to the test bundle, else in the package's `.build/debug`.
    public static let tapedeck: URL = builtExecutable("tapedeck")

    /// An executable of this package's build: next to the test bundle, else in the package's `.build/debug`.
    public static func builtExecutable(_ name: String) -> URL {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[candidates.count - 1]
    }
}

/// The curl command-line tool, run to its end (at most 30 s).
public enum Curl {
    /// Whether `/usr/bin/curl` is installed.
    public static let isInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    /// Runs `curl -s --max-time 30 arguments…` and returns its exit status and standard output.
    public static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let output = try await ExternalCommand.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "30"] + arguments)
        return (output.status, String(decoding: output.standardOutput, as: UTF8.self))
    }
}
