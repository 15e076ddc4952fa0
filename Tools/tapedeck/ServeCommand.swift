import ArgumentParser
import Foundation
import TapedeckCLICore
import TapedeckCassette
import TapedeckConformance
import TapedeckCore
import TapedeckStubServer
#if canImport(Glibc)
import Glibc
#endif

/// `tapedeck serve [CASSETTE] [--stubs FILE_OR_DIR] [--openapi SPEC]`: serve a cassette over HTTP(S) with the
/// in-process replayer's semantics, and/or a JSON stub-definition file or WireMock mappings (stubs answer first), or
/// the answers an OpenAPI document describes, until Ctrl-C or SIGTERM. With `--proxy`, the cassette is replayed by a
/// forward proxy (HTTP_PROXY / HTTPS_PROXY) that intercepts HTTPS.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a cassette, JSON stubs (Tapedeck's or WireMock's), a Pact contract or an OpenAPI document with the embedded stub server until Ctrl-C or SIGTERM.",
        discussion: """
            A cassette is served with exactly the matching, ordering and redaction of the in-process replayer; a \
            request no stub or interaction answers gets a 404 listing the nearest recorded requests. The stub file \
            holds one stub definition, an array of them, or {"stubs": [...]} (see the TapedeckStubServer \
            documentation, "Stub definitions in JSON"), or WireMock stub mappings: one mapping, an array, or \
            {"mappings": [...]}, recognised by a "mappings" key or by fields only WireMock uses (request url, \
            urlPath, urlPattern, urlPathPattern, urlPathTemplate, queryParameters, bodyPatterns; response \
            bodyFileName, fixedDelayMilliseconds, delayDistribution, statusMessage; scenarioName), and WireMock 4 \
            message stub mappings (trigger and actions, or {"messageMappings": [...]}), which answer the messages \
            of WebSocket clients on any path; --stubs-format tapedeck|wiremock overrides the guess. A folder \
            given to --stubs is read as WireMock's mappings folder (every *.json file in it, in path order; or \
            the folder holding mappings/ and message-mappings/), with body files from the __files folder beside it; a mapping file's bodyFileName is read from the __files folder \
            beside its mappings folder, or beside the file. A WireMock feature the stub server cannot reproduce \
            (proxying, response templating and other transformers, webhooks, XML or date matchers, JSONPath \
            filters, lognormal delays, ...) stops serve with the mapping and the JSON path named, rather than being \
            ignored (see "Serving WireMock mappings" in the TapedeckStubServer documentation). \
            With --openapi every request the stubs do not answer is \
            answered as the document describes: checked against it (an invalid request gets the operation's \
            documented 400, 422, 4XX or default answer with the violations in a Tapedeck-Violations header, else a \
            problem+json 400; --no-request-validation skips the check; 404 and 405 for paths and methods it lacks), \
            then answered with the first documented success (204 for an operation that documents none), in the \
            media type Accept allows, with the documented example or a value generated from the schema (the same \
            for the same --seed; --examples schema always generates); examples that break their own schema are \
            listed at start-up with their JSON pointer; Prefer: code=404 and Prefer: example=NAME choose another \
            documented answer. With --pact every request the stubs do not answer gets the example response of the \
            first contract interaction it matches by Pact's rules, else a 404 naming the nearest. With --tls a \
            certificate authority is made for this run, \
            the server speaks HTTPS for --host-name names, and the CA certificate's PEM is written to --ca-file \
            (printed), for example for curl --cacert. With --proxy the cassette is replayed by a forward proxy: \
            clients keep their URLs and use the printed address as their HTTP and HTTPS proxy, trusting the CA \
            written to --ca-out; no host is contacted.
            """
    )

    @Argument(help: "A cassette to serve (a request keeps the recorded URL's path; the first recorded origin answers); a HAR or VCR file is converted on the way.")
    var cassette: String?

    @Option(name: .long, help: ArgumentHelp("A JSON stub-definition file, WireMock mappings file, or WireMock mappings folder to serve.",
                                            valueName: "file-or-folder"))
    var stubs: String?

    @Option(name: .long, help: "An OpenAPI document (3.0 or 3.1, JSON or YAML) to answer from.")
    var openapi: String?

    @Option(name: .long, help: "A Pact contract (v2, v3 or v4) to serve as stubs: each request answered with the example response of the first interaction it matches by Pact's rules.")
    var pact: String?

    @Option(name: .long, help: "With --openapi, the seed of values generated from schemas.")
    var seed: UInt64 = 0

    @Flag(name: .customLong("no-request-validation"), help: "With --openapi, answer every request as if it conformed (no 400 for invalid ones).")
    var noRequestValidation = false

    @Option(name: .long, help: "With --openapi, answer with the documented examples (documented, the default) or generate every answer from its schema (schema).")
    var examples: ExampleSource = .documented

    enum ExampleSource: String, ExpressibleByArgument, CaseIterable {
        case documented, schema
    }

    /// How `--stubs` is read.
    enum StubsFormat: String, ExpressibleByArgument, CaseIterable {
        case tapedeck, wiremock
    }

    @Option(name: .customLong("stubs-format"),
            help: "Read --stubs as Tapedeck stub definitions or WireMock mappings (default: recognised from the content; a folder is WireMock's).")
    var stubsFormat: StubsFormat?

    @Flag(name: .long, inversion: .prefixedNo,
          help: "With a cassette, replay the last interaction again once all identical ones were played (default: as the cassette stores, else not).")
    var allowPlaybackRepeats: Bool?

    @Option(name: .customLong("replay-time"),
            help: "With a cassette: send recorded dates as recorded (recorded, the default unless the cassette stores another), or moved to now (now: Date, Expires, Last-Modified, dated Retry-After and cookie Expires, by the time since each interaction was recorded).")
    var replayTime: String?

    @Option(name: .long,
            help: "With a cassette: send recorded bodies in their recorded chunks and WebSocket frames at their recorded times multiplied by this scale (1: as recorded; 0: at once). Default: as the cassette stores, else at once.")
    var pacing: Double?

    @OptionGroup var matchOptions: MatchOptions

    @Option(name: .customLong("websocket-matching"),
            help: "With a cassette: compare a WebSocket client's text with the recording exactly (exact, the default) or as JSON, member order and number spelling aside (json).")
    var webSocketMatching: String = "exact"

    @Option(name: .customLong("websocket-mismatch-close"),
            help: "With a cassette: the close code sent to a WebSocket client whose message matches nothing (default 1008, policy violation).")
    var webSocketMismatchClose: UInt16 = 1008

    @Option(name: .customLong("websocket-pacing"),
            help: ArgumentHelp("With a cassette: pace WebSocket frames alone (--pacing paces both bodies and frames).", visibility: .hidden))
    var webSocketPacing: Double?

    @Option(name: .customLong("cassette"), help: "The cassette to serve (the same as the argument; --proxy reads it this way too).")
    var cassetteOption: String?

    @OptionGroup var proxyOptions: ProxyOptions

    /// The cassette, given as the argument or with `--cassette`.
    var cassetteFile: String? { cassetteOption ?? cassette }

    func validate() throws {
        if cassette != nil && cassetteOption != nil {
            throw ValidationError("give the cassette once, as the argument or with --cassette")
        }
        if stubsFormat != nil && stubs == nil {
            throw ValidationError("--stubs-format applies to --stubs")
        }
        if cassetteFile == nil && stubs == nil && openapi == nil && pact == nil {
            throw ValidationError("give a cassette to serve, --stubs FILE, --openapi SPEC, --pact CONTRACT, or a cassette with stubs")
        }
        if pact != nil && (cassetteFile != nil || openapi != nil || proxyOptions.proxy) {
            throw ValidationError("--pact answers every request the stubs do not, so it is served without a cassette or --openapi")
        }
        if openapi == nil && (noRequestValidation || examples != .documented) {
            throw ValidationError("--no-request-validation and --examples apply to --openapi")
        }
        if openapi != nil && cassetteFile != nil {
            throw ValidationError("--openapi answers every request the stubs do not, so it is served without a cassette")
        }
        if proxyOptions.proxy && (cassetteFile == nil || stubs != nil || openapi != nil || tls) {
            throw ValidationError("--proxy replays one cassette (--cassette FILE), without --stubs, --openapi or --tls")
        }
        if WebSocketFrameMatcher.Mode(rawValue: webSocketMatching) == nil {
            throw ValidationError("--websocket-matching \(webSocketMatching) is not one of \(WebSocketFrameMatcher.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let code = WebSocketCloseCode(rawValue: webSocketMismatchClose)
        if !code.isAllowedOnTheWire {
            throw ValidationError("--websocket-mismatch-close \(webSocketMismatchClose) is not a code a close frame may carry (1000–1003, 1007–1014, 3000–4999)")
        }
        for (name, scale) in [("--pacing", pacing), ("--websocket-pacing", webSocketPacing)] {
            if let scale, !(scale >= 0 && scale.isFinite) { throw ValidationError("\(name) takes a scale of 0 or more (0: at once, 1: as recorded)") }
        }
        if let replayTime, ReplayTime(rawValue: replayTime) == nil {
            throw ValidationError("--replay-time \(replayTime) is not one of \(ReplayTime.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if !proxyOptions.givenWithoutProxy.isEmpty {
            throw ValidationError(proxyOptions.givenWithoutProxy.joined(separator: ", ") + " only apply with --proxy")
        }
    }

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port: UInt16 = 8080

    @Option(name: .long, help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Flag(name: .long, help: "Serve HTTPS with a certificate authority made for this run.")
    var tls = false

    @Option(name: .customLong("host-name"), help: "With --tls, a host name the certificate names (repeatable; default localhost).")
    var hostName: [String] = []

    @Option(name: .customLong("ca-file"), help: "With --tls, where to write the CA certificate (default: a file in the temporary folder).")
    var caFile: String?

    func run() async throws {
        if proxyOptions.proxy, let cassette = cassetteFile {
            try await replayThroughProxy(cassette)
            return
        }
        var prepared: [Stub] = []
        var format = StubsFormat.tapedeck
        if let stubs { (prepared, format) = try loadStubs(stubs) }

        var mock: OpenAPIMock?
        if let openapi {
            let options = OpenAPIMock.Options(validatesRequests: !noRequestValidation, usesExamples: examples == .documented)
            do { mock = try OpenAPIMock(contentsOf: URL(fileURLWithPath: openapi), seed: seed, options: options) } catch { throw CLIError("\(error)") }
        }

        var pactStubs: PactStubs?
        if let pact {
            do { pactStubs = try PactStubs(PactImport.read(InputFile.read(URL(fileURLWithPath: pact)))) } catch { throw CLIError("\(pact): \(error)") }
        }

        let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
        let configuration = StubServer.Configuration(host: host, port: port)
        let server: StubServer
        do {
            // Connections wait until every stub, contract and cassette is in (startAccepting, below): a client that
            // connects as soon as the port opens is answered, not told that no stub matches.
            let ready = tls ? try StubServer.httpsConfiguration(hostNames: hostName.isEmpty ? ["localhost"] : hostName, configuration)
                            : configuration
            server = try StubServer(configuration: ready, accepting: false)
        } catch { throw CLIError("\(error)") }
        for stub in prepared { server.add(stub) }
        if let stubs {
            Console.out("Serving \(prepared.count) stub(s) from \(stubs)\(format == .wiremock ? " (WireMock mappings)" : "") on \(server.baseURL.absoluteString)")
        }
        if let pactStubs {
            server.add(Stub(id: "pact", name: "Pact contract", RequestPattern(), priority: 1_000_000, responder: .handler { request in
                let query = request.query.map { "?" + $0 } ?? ""
                let answer = pactStubs.respond(to: Interaction.Request(method: request.method.rawValue, url: request.path + query,
                                                                       headers: request.headers, body: CassetteBody(request.body))).response
                return StubResponse(status: answer.statusCode, headers: answer.headers, body: .data(answer.body.inlineData ?? Data()))
            }))
            Console.out("Serving \(pactStubs.count) interaction(s) of the Pact contract \(pact ?? "") on \(server.baseURL.absoluteString)")
        }
        if let mock {
            server.serve(mock)
            Console.out("Serving \(mock.conformance.operationCount) operation(s) of \(openapi ?? "") on \(server.baseURL.absoluteString)")
            for problem in mock.problems { Console.err("warning: \(problem) (answered with 500)") }
            for problem in mock.exampleProblems { Console.err("warning: \(problem) (the example breaks its schema; --examples schema generates instead)") }
        }
        var input: CassetteFileInput?
        defer { input?.remove() }
        if let cassette = cassetteFile {
            do {
                let opened = try CassetteFileInput.openPrintingNotes(path: cassette, verb: "serve")
                input = opened
                try server.serve(cassette: opened.url, configuration: try cassetteConfiguration(), webSockets: webSocketServing)
            } catch {
                server.stop()
                throw CLIError("\(error)")
            }
            Console.out("Serving cassette \(cassette) on \(server.baseURL.absoluteString)")
            for note in server.cassetteSummary()?.notes ?? [] { Console.err("note: \(note)") }
        }
        if tls, case .pem(let pem)? = server.configuration.trustedCertificates.first {
            let path = caFile ?? FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-serve-\(getpid())-ca.pem").path
            do { try OutputFile.write(pem, to: path, what: "the CA certificate") } catch {
                server.stop()
                throw error
            }
            Console.out("CA certificate (PEM): \(path)")
            Console.out("  e.g. curl --cacert \(path) https://\(hostName.first ?? "localhost"):\(server.port)/")
        }
        server.startAccepting()
        Console.out("Press Ctrl-C to stop.")
        let received = await waiter.next()
        let summary = try? server.finishCassette()
        server.stop()
        let requests = server.journal.entries.count + server.journal.droppedCount
        Console.out("Received \(received == SIGINT ? "SIGINT" : "SIGTERM"); stopped after \(requests) request(s).")
        if let summary = summary ?? nil {
            Console.out("Cassette: \(summary.playedCount) of \(summary.interactionCount) interaction(s) played, "
                        + "\(summary.unmatched.count) request(s) unmatched.")
            for report in summary.webSocketReports { Console.out("WebSocket near miss: \(report)") }
        }
    }

    /// How the cassette's WebSocket conversations are played, from the `--websocket-…` options (checked by
    /// `validate`); without `--websocket-pacing`, frames are paced as bodies are (`--pacing`, else the cassette's
    /// stored pacing).
    var webSocketServing: WebSocketServing {
        WebSocketServing(
            matching: WebSocketFrameMatcher.Mode(rawValue: webSocketMatching) ?? .exact,
            mismatchCloseCode: WebSocketCloseCode(rawValue: webSocketMismatchClose),
            pacing: webSocketPacing.map { $0 > 0 ? .recorded(scale: $0) : .atOnce })
    }

    /// The replay rules given on the command line (`--match`, `--pacing`, repeats, `--replay-time`); what is not
    /// given comes from the cassette.
    func cassetteConfiguration() throws -> CassetteConfiguration {
        var configuration = CassetteConfiguration(allowPlaybackRepeats: allowPlaybackRepeats,
                                                  timing: pacing.map { $0 > 0 ? .recorded(scale: $0) : .instant })
        if let replayTime { configuration.replayTime = ReplayTime(rawValue: replayTime) ?? .recorded }
        try matchOptions.apply(to: &configuration)
        return configuration
    }
}

extension ServeCommand {
    /// The stubs of `path`: a folder is WireMock's mappings folder; a file is read as `--stubs-format` says, or as
    /// its content looks.
    private func loadStubs(_ path: String) throws -> ([Stub], StubsFormat) {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            if stubsFormat == .tapedeck {
                throw CLIError("\(path) is a folder: only WireMock mappings are read from a folder (--stubs-format wiremock)")
            }
            do { return (try WireMockMappings.stubs(inDirectory: url), .wiremock) } catch { throw CLIError(error.description) }
        }
        if stubsFormat == nil, let found = RecordingFormat.evidence(path: path), found != .stubs {
            let advice = found == .pact ? "serve it with --pact \(path)" : "serve it as a cassette: tapedeck serve \(path)"
            throw CLIError("\(path) is \(found.name), not stub definitions: \(advice)")
        }
        let data: Data
        do { data = try InputFile.read(url) } catch { throw CLIError("could not read \(error)") }
        // Parsed once: to tell the formats apart, then to read WireMock's.
        let document = stubsFormat == .tapedeck ? nil : try? WireMockMappings.parse(data)
        let format = stubsFormat ?? (document.map(WireMockMappings.looksLikeMappings) == true ? .wiremock : .tapedeck)
        switch format {
        case .tapedeck:
            do { return (try Stub.decodeList(data, filesDirectory: url.deletingLastPathComponent()), format) } catch { throw CLIError("\(path): \(error.description)") }
        case .wiremock:
            do {
                let files = WireMockMappings.filesDirectory(forMappingFile: url)
                let parsed: JSONValue
                if let document { parsed = document } else { parsed = try WireMockMappings.parse(data) }
                return (try WireMockMappings.stubs(from: parsed, filesDirectory: files), format)
            } catch { throw CLIError("\(path): \(error.description)") }
        }
    }

    /// `serve --proxy`: replays `cassette` through a forward proxy until SIGINT or SIGTERM.
    private func replayThroughProxy(_ cassette: String) async throws {
        let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
        let input = try CassetteFileInput.openPrintingNotes(path: cassette, verb: "serve")
        defer { input.remove() }
        let proxy = try proxyOptions.start(cassette: input.url.path, mode: .replay, host: host, port: port,
                                           configuration: try cassetteConfiguration())
        for note in proxy.servingSummary()?.notes ?? [] { Console.err("note: \(note)") }
        Console.out("Press Ctrl-C to stop.")
        let received = await waiter.next()
        let summary = proxy.servingSummary()
        proxy.stop()
        Console.out("Received \(received == SIGINT ? "SIGINT" : "SIGTERM"); stopped.")
        if let summary {
            Console.out("Cassette: \(summary.playedCount) of \(summary.interactionCount) interaction(s) played, "
                        + "\(summary.unmatched.count) request(s) unmatched.")
        }
    }
}
