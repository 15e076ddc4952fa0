import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore
import TapedeckCore

/// `tapedeck redact FILE`: apply redaction to a cassette in place.
struct RedactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact",
        abstract: "Apply the default redaction, plus any filters given, to an existing cassette in place.",
        discussion: """
            The file is rewritten atomically (temporary file and rename) and only when something changed. Bodies kept \
            in sidecar files are redacted too: a changed one is written under its new content name before the \
            cassette is saved, and the old file is removed after. Each changed place is printed, never the secret \
            itself. Running it twice changes nothing the second time.
            """
    )

    @Argument(help: "The cassette to redact.")
    var file: String

    @Option(name: .long, help: "Also redact this header (repeatable).")
    var header: [String] = []

    @Option(name: .long, help: "Also redact this query parameter and form field (repeatable).")
    var query: [String] = []

    @Option(name: .customLong("json-path"), help: "Also redact the JSON body member at this JSONPath or its dotted shorthand, e.g. $.user.ssn, user.ssn or items.*.token (repeatable).")
    var jsonPath: [String] = []

    @Option(name: .long, help: "Also replace matches of this regular expression in URLs, headers and text bodies (repeatable).")
    var regex: [String] = []

    @Flag(name: .long, help: "Skip the built-in rules; apply only the filters given.")
    var noDefaults = false

    @Flag(name: .long, help: "Print what would change without writing the file.")
    var dryRun = false

    func run() throws {
        if let refusal = CassetteFileInput.refusal(forWriting: file, verb: "redact") { throw CLIError(refusal) }
        var filters: [RedactionFilter] = header.map { .header($0) } + query.map { .queryParameter($0) }
        for path in jsonPath {
            let parsed: JSONPath
            do { parsed = try JSONPath(path) } catch { throw CLIError("--json-path: \(error.description)") }
            guard !parsed.countsFromTheEnd else {
                throw CLIError("--json-path \(path): an index from the end ([-1]) cannot be redacted, since a body is redacted as it streams")
            }
            filters.append(.jsonPath(parsed))
        }
        for pattern in regex {
            do { filters.append(try .regex(pattern)) } catch {
                throw CLIError("--regex \(pattern) is not a valid regular expression: \(RegexProblem.words(for: pattern))")
            }
        }
        let redaction = Redaction(filters: filters, redactsDefaults: !noDefaults)
        // As a whole: a secret found in one interaction (or sidecar body) is scrubbed from all.
        let result: CassetteFileRedaction
        do { result = try redaction.redactFile(at: URL(fileURLWithPath: file), writing: !dryRun) } catch {
            throw CLIError(error.description)
        }
        var places: [String] = []
        for (index, (before, after)) in zip(result.original.interactions, result.redacted.interactions).enumerated() {
            places += RedactionChanges.places(before: before, after: after, base: "interactions[\(index)]")
        }
        places = places.map { place in result.sidecars.first { $0.place == place }.map { "\(place) (sidecar \($0.to))" } ?? place }
        for place in places { Console.out("redacted \(place)") }
        guard !places.isEmpty else {
            Console.out("\(file): nothing to redact")
            return
        }
        if dryRun {
            Console.out("\(file): \(places.count) place(s) would change (dry run, file not written)")
            return
        }
        Console.out("\(file): \(places.count) place(s) redacted")
    }
}
