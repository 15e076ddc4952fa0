import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore

/// `tapedeck inspect FILE`: a table of a cassette's interactions.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "List a cassette's interactions: index, method, URL, GraphQL operation, status or error, body sizes, recorded at.",
        discussion: "Reads format v1 cassettes and HAR 1.2 files. Sidecar bodies are counted by their recorded size. "
            + "A graphql column names the operation of each GraphQL request (POST JSON, batches, GET parameters) "
            + "when the cassette has any."
    )

    @Argument(help: "The cassette, or HAR, VCR or Pact file (recognised from its content).")
    var file: String

    @OptionGroup var output: JSONOutputOptions

    func run() throws {
        let loaded = try LoadedCassette.loadPrintingNotes(path: file)
        let summaries = InteractionSummary.all(loaded.cassette)
        if output.json {
            Console.outJSON(InteractionSummary.json(summaries))
            return
        }
        Console.out(InteractionSummary.table(summaries).render(style: Console.style))
        Console.out("\(summaries.count) interaction(s) in \(file)")
    }
}
