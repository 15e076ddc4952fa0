import Foundation
import TapedeckCore

/// Runs a command-line tool found on `PATH` (python3, curl) for cross-checks, feeding it `input` and collecting what
/// it writes.
public enum ExternalCommand {
    public struct Output: Sendable {
        public var status: Int32
        public var standardOutput: Data
        public var standardError: String
    }

    /// The tool's location on `PATH`, or `nil` when it is not installed.
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Whether `python3` can run here.
    public static let hasPython = find("python3") != nil
    /// Whether the `curl` command-line tool can run here.
    public static let hasCurl = find("curl") != nil

    /// SIGPIPE ignored in this process, once: writing to a tool that has ended then fails with EPIPE. Its default
    /// action ends the process without a word, and a test process that ends so leaves its children holding the
    /// runner's output pipe, so that `swift test` waits for ever (seen when python3 lacked a module and exited at once).
    private static let brokenPipesAreErrors: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Runs `tool` with `arguments` to its end on a thread of its own (the test's executor stays free), in
    /// `directory` and `environment` (this process's by default). After `timeLimit` seconds the tool is terminated,
    /// so that a test fails instead of the suite hanging on a tool that does not end.
    public static func run(_ tool: URL, _ arguments: [String], input: Data = Data(),
                           environment: [String: String]? = nil, in directory: URL? = nil,
                           timeLimit: TimeInterval? = nil) async throws -> Output {
        _ = brokenPipesAreErrors
        return try await onAThreadOfItsOwn {
            let process = ChildProcess()
            process.executableURL = tool
            process.arguments = arguments
            if let environment { process.environment = environment }
            if let directory { process.currentDirectoryURL = directory }
            let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
            if let timeLimit { DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog) }
            defer { watchdog.cancel() }
            // Errors are read on another thread so that neither pipe can fill up and stall the tool.
            let errors = Locked(Data())
            let errorsRead = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                errors.value = stderr.fileHandleForReading.readDataToEndOfFile()
                errorsRead.signal()
            }
            do {
                try stdin.fileHandleForWriting.write(contentsOf: input)
            } catch let error as NSError where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EPIPE) {
                // The tool ended, or closed its input, before reading all of it: its status and output say why.
            }
            try stdin.fileHandleForWriting.close()
            let output = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            errorsRead.wait()
            return Output(status: process.terminationStatus, standardOutput: output,
                          standardError: String(decoding: errors.value, as: UTF8.self))
        }
    }
}
