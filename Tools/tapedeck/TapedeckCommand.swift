import ArgumentParser
import TapedeckCore

/// The `tapedeck` command-line tool.
@main
struct TapedeckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapedeck",
        abstract: "Record, replay and serve HTTP traffic for deterministic tests.",
        version: TapedeckVersion.current,
        subcommands: [
            InspectCommand.self, FetchCommand.self, DiffCommand.self, LintCommand.self, RedactCommand.self,
            ConvertCommand.self, VerifyCommand.self, RecordCommand.self, ServeCommand.self, DemoCommand.self, PruneCommand.self,
            SweepCommand.self, RunCommand.self, MigrateCommand.self,
        ]
    )
}
