import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore

/// `tapedeck diff A B`: a semantic diff of two cassettes.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two cassettes interaction by interaction; exit 1 when they differ.",
        discussion: """
            JSON bodies are compared as JSON (key order and number spelling ignored); other bodies by bytes. Header \
            names are case-insensitive, and volatile headers are ignored: \(CassetteDiff.defaultVolatileHeaders.sorted().joined(separator: ", ")).
            """
    )

    @Argument(help: "The first cassette (or HAR, VCR or Pact file, recognised from its content).")
    var a: String

    @Argument(help: "The second cassette (or HAR, VCR or Pact file).")
    var b: String

    @Option(name: .customLong("ignore-header"), help: "Also ignore this header (repeatable).")
    var ignoreHeader: [String] = []

    @OptionGroup var output: JSONOutputOptions

    func run() throws {
        let left: LoadedCassette, right: LoadedCassette
        do {
            left = try LoadedCassette.load(path: a)
            right = try LoadedCassette.load(path: b)
        } catch { throw CLIError(error.description) }
        for note in left.notes + right.notes { Console.err(note) }
        let volatile = CassetteDiff.defaultVolatileHeaders.union(ignoreHeader.map { $0.lowercased() })
        let changes = CassetteDiff.compare(left, right, volatileHeaders: volatile)
        if output.json {
            Console.outJSON(.array(changes.map { change in
                ["path": .string(change.path), "old": change.old.map { .string($0) } ?? .null, "new": change.new.map { .string($0) } ?? .null]
            }))
        } else {
            let style = Console.style
            for change in changes {
                Console.out("\(change.path)")
                Console.out("  " + style.red("- \(change.old ?? "(absent)")"))
                Console.out("  " + style.green("+ \(change.new ?? "(absent)")"))
            }
            Console.out(changes.isEmpty ? "\(a) and \(b) are equivalent" : "\(changes.count) difference(s)")
        }
        if !changes.isEmpty { throw ExitCode.failure }
    }
}
