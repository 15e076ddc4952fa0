import Foundation
import TapedeckCore

/// A report or certificate written where the user said (`--junit`, `--json`, `--ca-file`), through `AtomicFile`
/// (and `-o`): a regular file is replaced whole, a device or FIFO written through, anything else refused in words; `-`
/// is stdout.
///
/// ```swift
/// try OutputFile.write(Data(xml.utf8), to: junit, what: "the JUnit report")
/// ```
enum OutputFile {
    /// Writes `data` to `path`, or to stdout for `-`; fails with "could not write WHAT to PATH: REASON", or without
    /// WHAT with the write's own error ("could not write PATH: REASON").
    static func write(_ data: Data, to path: String, what: String? = nil) throws(CLIError) {
        if path == "-" { return Console.outRaw(data) }
        do { try AtomicFile.write(data, to: URL(fileURLWithPath: path)) } catch {
            throw CLIError(what.map { "could not write \($0) to \(path): \(error.reason)" } ?? error.description)
        }
    }
}
