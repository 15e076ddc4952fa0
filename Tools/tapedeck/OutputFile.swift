import Foundation
import TapedeckCore

/// A report or certificate written where the user said (`--junit`, `--json`, `--ca-file`), through `AtomicFile`
/// as `-o` is: a regular file is replaced whole, a device or FIFO written through, anything else refused in words.
///
/// ```swift
/// try OutputFile.write(Data(xml.utf8), to: junit, what: "the JUnit report")
/// ```
enum OutputFile {
    /// Writes `data` to `path`; fails with "could not write WHAT to PATH: REASON".
    static func write(_ data: Data, to path: String, what: String) throws(CLIError) {
        do { try AtomicFile.write(data, to: URL(fileURLWithPath: path)) } catch {
            throw CLIError("could not write \(what) to \(path): \(error.reason)")
        }
    }
}
