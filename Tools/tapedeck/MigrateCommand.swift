import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore

/// `tapedeck migrate FILE --to VERSION`: rewrite a cassette so that an older Tapedeck can read it.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Rewrite a cassette in a format version an older Tapedeck reads.",
        discussion: """
            Tapedeck reads every cassette format version an earlier release wrote, and writes the lowest version a \
            cassette's content needs (Cassettes/FORMAT.md). migrate writes FILE for an older reader: what VERSION \
            cannot hold is left out and named (version 1 and 2 cannot hold stored replay rules), and a cassette that \
            VERSION cannot hold at all (a WebSocket conversation in version 1) is refused. The file is replaced \
            atomically; its sidecar bodies stay as they are.
            """
    )

    @Argument(help: "The cassette to rewrite.")
    var file: String

    @Option(name: .long, help: "The format version to write: 1, 2 or 3 (see Cassettes/FORMAT.md for which release reads which).")
    var to: Int

    @Flag(name: .long, help: "Print what would change without writing the file.")
    var dryRun = false

    func run() throws {
        if let refusal = CassetteFileInput.refusal(forWriting: file, verb: "migrate") { throw CLIError(refusal) }
        let url = URL(fileURLWithPath: file)
        let cassette: Cassette
        do { cassette = try CassetteFile.load(url) } catch { throw CLIError(error.description) }
        let migrated: CassetteMigration.Migrated
        do { migrated = try CassetteMigration.migrate(cassette, to: to) } catch { throw CLIError("\(file): \(error.description)") }
        for line in migrated.leftOut { Console.err("\(dryRun ? "would leave out" : "left out") \(line)") }
        let before = cassette.formatVersion, after = migrated.cassette.formatVersion
        guard migrated.cassette != cassette else {
            Console.out("\(file): version \(before) already, which every release that reads version \(to) reads; nothing to change")
            return
        }
        if !dryRun {
            do { try CassetteFile.save(migrated.cassette, to: url) } catch { throw CLIError(error.description) }
        }
        Console.out("\(file): \(dryRun ? "would be written" : "written") as version \(after) (was \(before))")
    }
}
