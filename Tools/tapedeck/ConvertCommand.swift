import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore
import TapedeckCore
import TapedeckStubServer

/// `tapedeck convert FILE [--from cassette|har|vcr] [--to cassette|har|wiremock|pact] [--consumer NAME] [--provider NAME] [--no-matchers] [-o OUT]`.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert Tapedeck cassettes, HAR 1.2 files, VCR cassettes (vcrpy, Ruby VCR) and Pact contracts; export WireMock stub mappings and Pact contracts.",
        discussion: """
            A cassette or HAR input is recognised by itself (a .har extension or a top-level "log" key means HAR); \
            a .yaml or .yml file, or --from vcr, is read as a vcrpy or Ruby VCR cassette: bodies as text, base64 \
            (!!binary, !binary, base64_string) and compressed, judged by the bytes and not the header (a gzip body is \
            stored decoded and served compressed again; a deflate body is stored inflated, without its \
            Content-Encoding; a body the recording client decoded already is kept; one that cannot be decoded is \
            kept byte for byte with a warning), secrets redacted on the way. \
            vcrpy stores no times, so its interactions are dated by the file's modification time. --match-on maps \
            the matchers the VCR cassette was used with to Tapedeck's matching rules (printed, since matching is \
            configured in code). --to wiremock writes WireMock stub mappings ({"mappings": [...]}) that match each \
            request by method and URL, answer repeated requests in recorded order through a scenario, and turn a \
            recorded transport error into a fault. --to pact writes a Pact specification v3 consumer contract between \
            --consumer (default: the file's name without its extension) and --provider (default: the first request's \
            host): one interaction per recorded one, described as METHOD /path?query and numbered when repeated, with \
            the request headers that select the representation (Accept, Accept-Encoding, Content-Type) kept, with \
            JSON bodies as JSON, text as text and other media types as base64; recorded transport errors, bodies cut \
            short, templated responses and bodies Pact v3 cannot express are left out with a warning on stderr. \
            Values that vary (differing between repeats of a request, UUIDs, ISO 8601 and HTTP dates, whole-number \
            ids, redacted values) get matchingRules, so Pact's verifier checks their type or format instead of the \
            recorded value; --no-matchers writes every recorded value as one the provider must send again. \
            A Pact contract (v2, v3 or v4; --from pact, or recognised by its consumer and provider) becomes a \
            cassette of its example exchanges (http://localhost + path); a newer specification, a message \
            interaction, an unknown matcher or broken JSON is refused with its JSON path. Sidecar bodies are inlined. \
            Without -o the result goes to stdout; with -o it is written atomically.
            """
    )

    enum Source: String, ExpressibleByArgument, CaseIterable {
        case cassette, har, vcr, pact
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case har, cassette, wiremock, pact
    }

    @Argument(help: "The cassette, HAR, VCR or Pact file to read.")
    var file: String

    @Option(name: .long, help: "The input format: cassette, har, vcr or pact (a Pact v2, v3 or v4 contract; default: from the file).")
    var from: Source?

    @Option(name: .long, help: "The output format: cassette, har, wiremock (WireMock stub mappings) or pact (a Pact v3 contract).")
    var to: Format = .cassette

    @Option(name: .long, help: "With --to pact, the consumer's name (default: the input file's name without its extension).")
    var consumer: String?

    @Option(name: .long, help: "With --to pact, the provider's name (default: the host of the first recorded request).")
    var provider: String?

    @Flag(name: .long, inversion: .prefixedNo,
          help: "With --to pact, matchers for values that vary: those that differ between repeats of a request, UUIDs, ISO 8601 and HTTP dates, whole-number ids and redacted values (default: on).")
    var matchers: Bool?

    @Option(name: .customLong("match-on"), help: "With a VCR input, its match_on (vcrpy) or match_requests_on (Ruby VCR) matchers, comma-separated, e.g. method,uri: prints the Tapedeck matching rules to use.")
    var matchOn: String?

    @Option(name: [.customShort("o"), .long], help: "Write here instead of stdout (- is stdout).")
    var output: String?

    @OptionGroup var matchOptions: MatchOptions

    func validate() throws {
        if matchOn != nil && source != .vcr { throw ValidationError("--match-on applies to a VCR input (--from vcr)") }
        if matchOptions.match != nil && to != .cassette { throw ValidationError("--match stores rules in a cassette: it applies to --to cassette") }
        if (consumer != nil || provider != nil || matchers != nil) && to != .pact {
            throw ValidationError("--consumer, --provider and --matchers/--no-matchers apply to --to pact")
        }
        for (option, name) in [("--consumer", consumer), ("--provider", provider)] where name?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("\(option) must not be empty")
        }
    }

    /// The input format: as given, else VCR for a YAML file, else whatever the loader recognises.
    private var source: Source {
        if let from { return from }
        let suffix = URL(fileURLWithPath: file).pathExtension.lowercased()
        return suffix == "yaml" || suffix == "yml" ? .vcr : .cassette
    }

    func run() throws {
        let (cassette, bodyData) = try load()
        let data: Data
        var written = cassette.interactions.count
        switch to {
        case .har:
            data = try HARCodec.export(cassette) { body in try bodyData(body) }
        case .wiremock:
            data = CassetteJSON.serialize(try WireMockExport.mappings(for: cassette, bodyData: bodyData), style: .pretty)
        case .pact:
            guard let provider = provider ?? PactExport.defaultProvider(for: cassette) else {
                // About every request of the file: placed at the JSONPath of their URLs, as the sweep wants a place.
                throw CLIError("\(file): no URL at $.interactions[*].request.url has a host to name the provider after; give --provider NAME")
            }
            let contract = try PactExport.contract(for: cassette, consumer: consumer ?? PactExport.defaultConsumer(cassettePath: file),
                                                   provider: provider, matchers: matchers ?? true, bodyData: bodyData)
            for skipped in contract.skipped { Console.err("warning: left out \(skipped)") }
            written -= contract.skipped.count
            data = CassetteJSON.serialize(contract.json, style: .pretty)
        case .cassette:
            // Sidecar bodies are inlined so the new file stands alone.
            var inlined = cassette
            for index in inlined.interactions.indices {
                let interaction = inlined.interactions[index]
                if interaction.request.body.sidecarPath != nil {
                    inlined.interactions[index].request.body = CassetteBody(try bodyData(interaction.request.body))
                }
                if case .response(var response) = interaction.outcome, response.body.sidecarPath != nil {
                    response.body = CassetteBody(try bodyData(response.body), contentEncoding: response.body.contentEncoding)
                    inlined.interactions[index].outcome = .response(response)
                }
            }
            if let rules = try matchOptions.rules() { inlined.replayRules.matching = rules }
            data = CassetteCodec.encode(inlined)
        }
        if let matchOn {
            let mapped = VCRMatchOn.map(matchOn.split(separator: ",").map(String.init))
            Console.err("Matching: \(mapped.swift)")
            for note in mapped.notes { Console.err("  note: \(note)") }
        }
        guard let output, output != "-" else {
            Console.outRaw(data)
            return
        }
        try OutputFile.write(data, to: output)
        Console.err("Wrote \(written) interaction(s) as \(to.rawValue) to \(output)")
    }

    /// The input as a cassette, and how to read the bytes of one of its bodies.
    private func load() throws -> (Cassette, (CassetteBody) throws -> Data) {
        // --from vcr and --from pact read the file so whatever its name; a cassette or HAR must be what it says.
        let forced: RecordingFormat? = switch from { case .vcr?: .vcr; case .pact?: .pact; default: nil }
        let loaded = try LoadedCassette.loadPrintingNotes(path: file, as: forced)
        if let from, forced == nil, from.rawValue != loaded.format.rawValue {
            throw CLIError("\(file) is \(loaded.format.name), not \(RecordingFormat(rawValue: from.rawValue)?.name ?? from.rawValue)")
        }
        return (loaded.cassette, { body in
            do {
                return try CassetteFile.bodyData(body, cassette: loaded.url,
                                                 place: body.sidecarPath.flatMap { loaded.cassette.place(ofSidecar: $0) })
            } catch { throw CLIError("\(error)") }
        })
    }
}
