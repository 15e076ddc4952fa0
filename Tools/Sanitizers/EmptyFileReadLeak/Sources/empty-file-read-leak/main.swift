import Foundation

// Reads a file three times with `Data(contentsOf:)` (or `String(contentsOf:encoding:)`), the file empty (`empty`,
// `string`) or holding ten bytes (`bytes`), and drops every result. Nothing is kept, so LeakSanitizer should report
// nothing; with Swift 6.3.1's FoundationEssentials on Linux, each read of the empty file leaks the 4,096-byte buffer
// that readBytesFromFile allocated for it (a direct leak whose stack ends in readBytesFromFile), and the ten-byte
// file leaks nothing. So a leak report from readBytesFromFile is the toolchain's, not the caller's.
let mode = CommandLine.arguments.dropFirst().first ?? ""
let file = FileManager.default.temporaryDirectory.appendingPathComponent("empty-file-read-leak-\(getpid())")
try Data(mode == "bytes" ? Array("0123456789".utf8) : []).write(to: file)
defer { try? FileManager.default.removeItem(at: file) }
var total = 0
for _ in 0..<3 {
    total += mode == "string" ? try String(contentsOf: file, encoding: .utf8).utf8.count : try Data(contentsOf: file).count
}
print("read \(total) bytes")
