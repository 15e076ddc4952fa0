import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore

/// `tapedeck lint FILE...`: schema, secrets, age and sidecar checks.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check cassettes for format errors, secrets that escaped redaction, stale interactions and unused sidecar files.",
        discussion: """
            Rules:
              schema          the file must decode (the codec's error, with line and column for invalid JSON)
              secret          values the redaction rules would change: values under secret names, and copies of a
                              secret found anywhere in the cassette (place, name and a masked preview; never the value)
              entropy         base64- or hex-looking tokens of 20+ characters with high Shannon entropy
              stale           interactions older than --max-age days
              unused-sidecar  files in <name>.bodies/ that no body refers to
              missing-sidecar bodies whose sidecar file is missing
            Exits with status 1 when anything is found.
            """
    )

    @Argument(help: "The cassettes (or HAR, VCR or Pact files) to check.")
    var files: [String]

    @Option(name: .long, help: "Report interactions recorded more than this many days ago.")
    var maxAge: Int?

    @OptionGroup var output: JSONOutputOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one cassette file") }
        if let maxAge, maxAge < 0 { throw ValidationError("--max-age must be 0 or more days, got \(maxAge)") }
    }

    func run() throws {
        let linter = CassetteLinter(maxAge: maxAge)
        let now = Date()
        let findings = files.flatMap { linter.lint(path: $0, now: now) }
        if output.json {
            Console.outJSON(["files": .array(files.map { .string($0) }), "findings": .array(findings.map(\.json))])
        } else {
            let style = Console.style
            for finding in findings {
                Console.out("\(finding.file): \(finding.place): \(style.red("[\(finding.rule.rawValue)]")) \(finding.message)")
            }
            let summary = findings.isEmpty
                ? style.green("\(files.count) file(s) checked, no findings")
                : "\(files.count) file(s) checked, \(findings.count) finding(s)"
            Console.out(summary)
        }
        if !findings.isEmpty { throw ExitCode.failure }
    }
}
