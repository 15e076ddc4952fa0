import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCLICore
import TapedeckCurl

/// `tapedeck verify FILE --against URL`: contract verification of a live provider against recorded answers;
/// `tapedeck verify --openapi SPEC FILE…`: conformance of recorded interactions to the provider's OpenAPI document.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Replay each recorded request against a live provider and check its answers still honour the cassette.",
        discussion: """
            Each recorded request is sent, with its scheme, host and port replaced by --against, through libcurl. \
            The answer must have:
              - the recorded status code;
              - the recorded media type (Content-Type parameters ignored);
              - for JSON bodies, a compatible shape: the same keys with the same JSON types, recursively, each array \
            element fitting one of the shapes recorded for that array's elements (any one);
              - equal values at every --field path.
            Other headers (Date and the like) are not compared. Recorded transport errors are skipped; a response \
            recorded as interrupted (a stall or a dropped connection) must be interrupted the same way. Exits with \
            status 1 when any interaction breaks the contract.

            Redaction placeholders in the recorded requests ([REDACTED] in a header, query parameter, JSON member or \
            form field) are filled from --secret, --secrets-file or TAPEDECK_SECRET_<NAME> variables, and \
            --header-env/--bearer-env add credentials per host; a failed interaction that still carries an \
            unfilled placeholder says how to supply it. Secrets are masked in every report.

            With --pact CONTRACT instead, nothing is sent either: every interaction of the Pact contract (v2, v3 or \
            v4) must be recorded in the cassette, with a request and a response that match it by Pact's matching \
            rules; recorded exchanges the contract does not describe are listed.

            With --openapi SPEC instead of --against, nothing is sent: every interaction of every cassette is checked \
            against the OpenAPI 3.0 or 3.1 document (JSON or YAML): the operation exists for the method and path \
            template; path, query, header and cookie parameters are present when required and valid; the status is \
            documented (or covered by a range or default); required response headers are there; request and response \
            bodies have a documented media type and, for JSON, validate against their schemas. Each problem names the \
            part, the JSON pointer inside the body and the schema rule.
            """
    )

    @Argument(help: "The cassette holding the contract (several with --openapi).")
    var files: [String]

    @Option(name: .customLong("against"), help: "The provider's base URL, e.g. http://127.0.0.1:8080; replaces each recorded scheme, host and port.")
    var againstOption: String?

    @Option(name: .long, help: "Check the cassettes against this OpenAPI 3.0/3.1 document (JSON or YAML) instead of a live provider.")
    var openapi: String?

    @Option(name: .long, help: "Check the cassette against this Pact contract (v2, v3 or v4): every contract interaction recorded, with a request and a response that match it by Pact's rules.")
    var pact: String?

    /// The one cassette of a live verification.
    var file: String { files[0] }
    /// The live provider's base URL (`--against`).
    var against: String { againstOption ?? "" }

    @Option(name: .long, help: "A JSONPath or its dotted shorthand whose value must be equal, e.g. $.user.id or user.id (repeatable).")
    var field: [String] = []

    @Option(name: .long, help: "Write a JUnit XML report here.")
    var junit: String?

    @Option(name: .customShort("H"), help: "Replace (or add) this request header on every request, 'Name: value', e.g. real credentials for redacted ones (repeatable).")
    var header: [String] = []

    @Option(name: .long, help: "Seconds to wait for each answer.")
    var timeout: Double = 30

    @OptionGroup var secrets: SecretOptions

    @OptionGroup var output: JSONOutputOptions

    func validate() throws {
        if pact != nil {
            guard againstOption == nil, openapi == nil else { throw ValidationError("use one of --against, --openapi and --pact") }
            guard files.count == 1 else { throw ValidationError("--pact verifies one cassette at a time; \(files.count) were given") }
            return
        }
        if openapi != nil {
            guard againstOption == nil else { throw ValidationError("use either --against URL or --openapi SPEC, not both") }
            guard field.isEmpty, header.isEmpty else { throw ValidationError("--field and -H apply to --against, not --openapi") }
            return
        }
        guard againstOption != nil else { throw ValidationError("missing --against URL (a live provider) or --openapi SPEC (a document)") }
        guard files.count == 1 else { throw ValidationError("--against verifies one cassette at a time; \(files.count) were given") }
        guard let base = URLComponents(string: against), let scheme = base.scheme, ["http", "https"].contains(scheme.lowercased()), base.host != nil else {
            throw ValidationError("--against '\(against)' is not an http or https URL such as http://127.0.0.1:8080")
        }
        for field in header where !field.contains(":") { throw ValidationError("-H '\(field)' is not 'Name: value'") }
    }

    func run() async throws {
        if let pact {
            try checkPact(pact)
            return
        }
        if let openapi {
            try checkConformance(to: openapi)
            return
        }
        let loaded = try LoadedCassette.loadPrintingNotes(path: file)
        var fields: [JSONPath] = []
        for path in field {
            do { fields.append(try JSONPath(path)) } catch { throw ValidationError("--field: \(error.description)") }
        }
        let rules = ContractRules(fields: fields)
        var secretSource = try secrets.resolve()
        secretSource.credentials += literalCredentials
        let transport = CurlTransport()
        var outcomes: [VerificationOutcome] = []
        for (index, interaction) in loaded.cassette.interactions.enumerated() {
            outcomes.append(await verify(interaction, index: index, loaded: loaded, rules: rules, secrets: secretSource,
                                         transport: transport))
        }
        let failed = outcomes.filter { !$0.passed }
        if output.json {
            Console.outJSON(["against": .string(against), "passed": .bool(failed.isEmpty), "interactions": .array(outcomes.map(\.json))])
        } else {
            print(outcomes: outcomes, failed: failed)
        }
        if let junit {
            let report = JUnitReport(suite: "tapedeck verify \(URL(fileURLWithPath: file).lastPathComponent)", cases: outcomes.map {
                JUnitReport.TestCase(name: "#\($0.index) \($0.request)", className: URL(fileURLWithPath: file).lastPathComponent,
                                     seconds: $0.seconds, failure: $0.passed ? nil : $0.problems.joined(separator: "\n"), skipped: $0.skipped)
            })
            try OutputFile.write(Data(report.xml().utf8), to: junit, what: "the JUnit report")
        }
        if !failed.isEmpty { throw ExitCode.failure }
    }

    /// `--pact`: the cassette against a Pact contract, with nothing sent.
    private func checkPact(_ contractPath: String) throws {
        let loaded = try LoadedCassette.loadPrintingNotes(path: file)
        let data: Data
        do { data = try InputFile.read(URL(fileURLWithPath: contractPath)) } catch { throw CLIError("could not read \(error)") }
        let report: PactVerification.Report
        do {
            report = try PactVerification.check(loaded.cassette, against: try PactImport.read(data)) { loaded.bodyData($0) }
        } catch { throw CLIError("\(contractPath): \(error)") }
        let style = Console.style
        var table = TextTable(header: ["#", "contract interaction", "result", "recorded"], rightAligned: [0])
        for (index, outcome) in report.outcomes.enumerated() {
            table.append([String(index), outcome.description, outcome.passed ? style.green("PASS") : style.red("FAIL"),
                          outcome.recordedIndex.map { "#\($0)" } ?? "-"])
        }
        Console.out(table.render(style: style))
        for (index, outcome) in report.outcomes.enumerated() where !outcome.passed {
            Console.out()
            Console.out("#\(index) \(outcome.description):")
            for problem in outcome.problems { Console.out("  - \(problem)") }
        }
        Console.out()
        if !report.undescribed.isEmpty {
            Console.out("\(report.undescribed.count) recorded exchange(s) the contract does not describe: "
                        + report.undescribed.map { "#\($0) \(loaded.cassette.interactions[$0].request.summary)" }.joined(separator: ", "))
        }
        let failed = report.outcomes.filter { !$0.passed }.count
        Console.out(failed == 0
            ? style.green("\(report.outcomes.count) contract interaction(s) honoured by \(file)")
            : style.red("\(failed) of \(report.outcomes.count) contract interaction(s) not honoured by \(file)"))
        if failed > 0 { throw ExitCode.failure }
    }

    private func print(outcomes: [VerificationOutcome], failed: [VerificationOutcome]) {
        let style = Console.style
        var table = TextTable(header: ["#", "request", "result", "status"], rightAligned: [0])
        for outcome in outcomes {
            let result = outcome.skipped ? "SKIP" : outcome.passed ? style.green("PASS") : style.red("FAIL")
            table.append([String(outcome.index), outcome.request, result, outcome.status])
        }
        Console.out(table.render(style: style))
        for outcome in failed {
            Console.out()
            Console.out("#\(outcome.index) \(outcome.request):")
            for problem in outcome.problems { Console.out("  - \(problem)") }
        }
        Console.out()
        let checked = outcomes.filter { !$0.skipped }.count
        Console.out(failed.isEmpty
            ? style.green("\(checked) interaction(s) honour the contract against \(against)")
            : style.red("\(failed.count) of \(checked) interaction(s) broke the contract against \(against)"))
    }

    /// The `-H` headers that carry credentials (by redaction's rules), sent to every host and masked in reports;
    /// the others are set as they are.
    private var literalCredentials: [HostCredential] {
        headerFields.filter { Redaction.default.isSensitiveHeader($0.name, value: $0.value) }
            .map { HostCredential(host: "*", header: $0.name, value: $0.value) }
    }

    /// `-H 'Name: value'` items as fields.
    private var headerFields: [HTTPHeaders.Field] {
        header.map { field in
            let parts = field.split(separator: ":", maxSplits: 1)
            return HTTPHeaders.Field(name: parts[0].trimmingCharacters(in: .whitespaces),
                                     value: parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
    }

    private func verify(_ interaction: Interaction, index: Int, loaded: LoadedCassette, rules: ContractRules,
                        secrets: PlaceholderSecrets, transport: CurlTransport) async -> VerificationOutcome {
        let summary = "\(interaction.request.method) \(URLParts(interaction.request.url).pathAndQuery)"
        guard let recorded = interaction.response else {
            return VerificationOutcome(index: index, request: summary, skipped: true, status: "recorded error", problems: [], seconds: 0)
        }
        if interaction.webSocket != nil {
            return VerificationOutcome(index: index, request: summary, skipped: true, status: "WebSocket, not verified", problems: [], seconds: 0)
        }
        guard let url = Self.retarget(interaction.request.url, to: against) else {
            return VerificationOutcome(index: index, request: summary, skipped: false, status: "-",
                                       problems: ["request: the recorded URL \(interaction.request.url) cannot be retargeted"], seconds: 0)
        }
        var request = HTTPRequest(method: HTTPMethod(rawValue: interaction.request.method), url: url, timeoutInterval: timeout)
        let dropped: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]
        for field in interaction.request.headers where !dropped.contains(field.name.lowercased()) {
            request.headers.add(name: field.name, value: field.value)
        }
        for field in headerFields where !Redaction.default.isSensitiveHeader(field.name, value: field.value) {
            request.headers.replaceOrAdd(name: field.name, value: field.value)
        }
        let body = loaded.bodyData(interaction.request.body)
        if !body.isEmpty { request.body = .data(body) }
        let fill = secrets.fill(request)
        let started = ContinuousClock.now
        let outcome = await send(fill.request, index: index, summary: summary, recorded: recorded, loaded: loaded, rules: rules,
                                 transport: transport, started: started)
        var problems = outcome.problems.map(fill.masking)
        if !problems.isEmpty { problems += fill.missing.map(SecretOptions.hint) }
        return VerificationOutcome(index: index, request: summary, skipped: false, status: outcome.status, problems: problems,
                                   seconds: outcome.seconds)
    }

    /// Sends one filled request and checks its answer against the recorded one.
    private func send(_ request: HTTPRequest, index: Int, summary: String, recorded: Interaction.Response, loaded: LoadedCassette,
                      rules: ContractRules, transport: CurlTransport, started: ContinuousClock.Instant) async -> VerificationOutcome {
        let url = request.url
        do {
            let response = try await transport.send(request)
            let elapsed = ContinuousClock.now - started
            let expected = ContractRules.Answer(status: recorded.statusCode, contentType: recorded.headers["Content-Type"],
                                                body: loaded.bodyData(recorded.body))
            let actual = ContractRules.Answer(status: response.statusCode, contentType: response.headers["Content-Type"],
                                              body: response.data ?? Data())
            var problems = rules.check(recorded: expected, live: actual).map(\.line)
            if let interruption = recorded.interruption {
                // The recorded body is cut short, so the answer is judged by the interruption alone.
                problems = ["interruption: recorded as interrupted (URLError \(interruption.code) "
                            + "\(URLErrorNames.name(interruption.code))), the live transfer completed"]
            }
            return VerificationOutcome(index: index, request: summary, skipped: false, status: "\(response.statusCode)",
                                       problems: problems, seconds: elapsed.inSeconds)
        } catch {
            if let interruption = recorded.interruption, let urlError = error as? URLError, urlError.code.rawValue == interruption.code {
                return VerificationOutcome(index: index, request: summary, skipped: false, status: "interrupted as recorded", problems: [],
                                           seconds: (ContinuousClock.now - started).inSeconds)
            }
            return VerificationOutcome(index: index, request: summary, skipped: false, status: "error",
                                       problems: ["transport: " + FetchCommand.explain(error, url: url.absoluteString).replacingOccurrences(of: "\n  ", with: "; ")],
                                       seconds: (ContinuousClock.now - started).inSeconds)
        }
    }

    /// The recorded URL with its scheme, host and port taken from `base`.
    static func retarget(_ recorded: String, to base: String) -> URL? {
        guard var components = URLComponents(string: recorded), let target = URLComponents(string: base) else { return nil }
        components.scheme = target.scheme
        components.host = target.host
        components.port = target.port
        return components.url
    }
}

/// What verification made of one interaction.
struct VerificationOutcome {
    let index: Int
    let request: String
    let skipped: Bool
    let status: String
    let problems: [String]
    let seconds: Double

    var passed: Bool { problems.isEmpty }

    var json: CassetteJSON {
        ["index": .integer(index), "request": .string(request), "result": .string(skipped ? "skip" : passed ? "pass" : "fail"),
         "status": .string(status), "problems": .array(problems.map { .string($0) })]
    }
}
