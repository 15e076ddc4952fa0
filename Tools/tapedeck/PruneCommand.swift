import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore

/// `tapedeck prune FILE --unused-in REPORT`: drop the interactions no test of a run used.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Drop the interactions of a cassette that no test of a run played.",
        discussion: """
            The run report comes from running the tests with TAPEDECK_RUN_REPORT=FILE (TapedeckTesting appends a line \
            for every cassette a test finishes). Interactions that no line played are dropped, the file is rewritten \
            atomically while holding the cassette's lock, and sidecar bodies only they used are removed. A report made \
            while the cassette had another number of interactions is refused.
            """
    )

    @Argument(help: "The cassette to prune.")
    var file: String

    @Option(name: .customLong("unused-in"), help: "The run report (TAPEDECK_RUN_REPORT) that says what was played.")
    var report: String

    @Flag(name: .long, help: "Print what would be dropped without writing the file.")
    var dryRun = false

    func run() throws {
        if let refusal = CassetteFileInput.refusal(forWriting: file, verb: "prune") { throw CLIError(refusal) }
        let url = URL(fileURLWithPath: file)
        let dropped: [String]
        do {
            dropped = try CassettePruning.prune(url, dryRun: dryRun) { cassette throws(CassetteError) in
                try RunReport.played(in: URL(fileURLWithPath: report), cassette: url, interactionCount: cassette.interactions.count)
            }
        } catch {
            throw CLIError(error.description)
        }
        for line in dropped { Console.out("\(dryRun ? "would drop" : "dropped") \(line)") }
        if dropped.isEmpty {
            Console.out("\(file): every interaction was played; nothing to prune")
        } else {
            Console.out("\(file): \(dropped.count) interaction(s) \(dryRun ? "would be dropped (dry run, file not written)" : "dropped")")
        }
    }
}
