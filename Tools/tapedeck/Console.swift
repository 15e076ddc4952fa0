import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore
#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to stdout and stderr, and the colour decision for stdout.
enum Console {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset.
    static let style = TerminalStyle.detect(isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
    /// Whether stderr is a terminal (progress bars are drawn only then).
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Writes `text` and a newline to stdout.
    static func out(_ text: String = "") { write(Data((text + "\n").utf8), to: .standardOutput) }
    /// Writes bytes to stdout.
    static func outRaw(_ data: Data) { write(data, to: .standardOutput) }
    /// Writes `text` and a newline to stderr.
    static func err(_ text: String) { write(Data((text + "\n").utf8), to: .standardError) }
    /// Writes `text` to stderr with no newline (progress bars).
    static func errRaw(_ text: String) { write(Data(text.utf8), to: .standardError) }

    private static func write(_ data: Data, to handle: FileHandle) {
        try? handle.write(contentsOf: data)
    }

    /// A JSON value, pretty-printed, on stdout.
    static func outJSON(_ value: CassetteJSON) {
        outRaw(CassetteJSON.serialize(value, style: .pretty) + Data("\n".utf8))
    }
}

/// An error the tool reports as `Error: <message>` with exit status 1; messages name the file and place.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `--json`, shared by the commands that can answer for scripts.
struct JSONOutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print machine-readable JSON on stdout instead of a table.")
    var json = false
}
