import Foundation
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs one verb of the CLI on one damaged file in its own folder, within a time bound.
struct SweepRun {
    var executable: URL
    /// The longest one run may take before it counts as a hang.
    var timeLimit: TimeInterval

    /// Runs `verb` on `input` (in `folder`, which receives the output files) and returns how it ended.
    func run(_ verb: SweepVerb, input: URL, folder: URL) throws -> SweepEnding {
        let stdoutFile = folder.appendingPathComponent("stdout.txt"), stderrFile = folder.appendingPathComponent("stderr.txt")
        try Data().write(to: stdoutFile)
        try Data().write(to: stderrFile)
        let out = try FileHandle(forWritingTo: stdoutFile), err = try FileHandle(forWritingTo: stderrFile)
        defer { try? out.close(); try? err.close() }
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = verb.arguments.map { argument in
            argument.replacingOccurrences(of: "{input}", with: input.path)
                .replacingOccurrences(of: "{out}", with: folder.appendingPathComponent("converted.out").path)
                .replacingOccurrences(of: "{cassette}", with: SweepSeed.root.appendingPathComponent(SweepSeed.intactCassette).path)
                .replacingOccurrences(of: "{openapi}", with: SweepSeed.root.appendingPathComponent(SweepSeed.intactOpenAPI).path)
        }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TAPEDECK_") }
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeLimit)
        var timedOut = !Self.wait(for: process, until: deadline) { verb.serves && Self.says("Press Ctrl-C", in: stdoutFile) }
        if !timedOut, verb.serves, process.isRunning {
            // Ready: it read its input. Stopped at once, as a user's Ctrl-C would.
            process.interrupt()
            timedOut = !Self.wait(for: process, until: Date().addingTimeInterval(timeLimit)) { false }
        }
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let termination: SweepEnding.Termination = timedOut ? .timedOut
            : process.terminationReason == .uncaughtSignal ? .signal(process.terminationStatus) : .exit(process.terminationStatus)
        return SweepEnding(termination: termination, stdout: Self.text(of: stdoutFile), stderr: Self.text(of: stderrFile))
    }

    /// Waits until `process` has ended or `ready` holds (true), or `deadline` passed (false).
    private static func wait(for process: ChildProcess, until deadline: Date, ready: () -> Bool) -> Bool {
        var pause: useconds_t = 1_000
        while process.isRunning {
            if ready() { return true }
            if Date() >= deadline { return false }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        return true
    }

    private static func says(_ text: String, in file: URL) -> Bool {
        guard let data = try? Data(contentsOf: file) else { return false }
        return String(decoding: data, as: UTF8.self).contains(text)
    }

    /// The first 4 KB of what a run printed: enough to classify, and a huge echoed value stays small.
    private static func text(of file: URL) -> String {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: 4_096)) ?? Data(), as: UTF8.self)
    }
}
