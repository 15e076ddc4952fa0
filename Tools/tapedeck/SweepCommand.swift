import ArgumentParser
import Foundation
import TapedeckCLICore
import TapedeckCassette
import TapedeckCore
import TapedeckStubServer

/// `tapedeck sweep CASSETTE [--fault NAME]… [--interaction PATTERN]… [--known 'PATTERN · FAULT']… -- COMMAND [ARG…]`:
/// runs a command once per (interaction, fault) pair, each time against a stub server on 127.0.0.1 that serves the
/// cassette with that interaction replaced by the fault; the command's exit status says whether it handled it.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a command once per (interaction, fault) pair of a cassette, served by the stub server, and report which pairs it handled.",
        discussion: """
            Each run gets a fresh stub server on 127.0.0.1 serving the cassette as recorded, except that one \
            interaction is replaced, once, by one fault (a retry gets the recording; a 503 keeps answering until \
            its Retry-After of 1 s has passed). The command finds the server in TAPEDECK_SWEEP_URL and the pair in \
            TAPEDECK_SWEEP_CASE ("GET /v1/me · timeout"), TAPEDECK_SWEEP_FAULT and TAPEDECK_SWEEP_INTERACTION; exit \
            status 0 means it handled the pair. Faults (--fault, repeatable; all by default): timeout (the server \
            never answers, so the client's own timeout fires), resetBeforeHead, resetMidBody, truncatedBody, \
            serverError (500), serviceUnavailable (503 with Retry-After), mismatchedBody, connectionRefused (over \
            sockets a 502 with X-Tapedeck-Recorded-Error, since a listening server cannot refuse). A recorded WebSocket \
            conversation also gets, after the middle of the server's frames: webSocketDrop (the TCP connection closes \
            without a close frame), webSocketInternalError, webSocketGoingAway, webSocketTryAgainLater (a close with \
            1011, 1001, 1013) and webSocketStall (nothing more is sent; the socket stays open). A fault that \
            does not apply to an interaction (a reset mid-body of a 204) is skipped and listed. The exit status is \
            0 when every pair was handled or failed as --known says.
            """
    )

    @Argument(help: "The cassette (or HAR or VCR file, converted on the way) to sweep.")
    var cassette: String

    @Option(name: .customLong("fault"), help: "A fault to try (repeatable; default: all).")
    var faults: [String] = []

    @Option(name: .customLong("interaction"), help: "Which interactions to fault, e.g. 'GET /v1/*' (repeatable; default: all).")
    var interactions: [String] = []

    @Option(name: .customLong("known"), help: "A pair expected to fail, 'GET /v1/me · timeout' or 'GET /v1/me | timeout' (repeatable).")
    var known: [String] = []

    @Option(name: .long, help: "Write the report as JSON to this file.")
    var json: String?

    @Option(name: .long, help: "Write the report as JUnit XML to this file.")
    var junit: String?

    @Option(name: .customLong("run-timeout"), help: "Seconds a run may take before it is killed and counted as not handled.")
    var runTimeout: Double = 60

    @Flag(name: .long, help: "Print the pairs and the skipped ones without running anything.")
    var list = false

    @OptionGroup var matchOptions: MatchOptions

    @Argument(parsing: .postTerminator, help: "The command to run for each pair.")
    var command: [String] = []

    func validate() throws {
        if !list && command.isEmpty { throw ValidationError("give the command to run after --, e.g. tapedeck sweep api.json -- ./client-test.sh") }
    }

    func run() throws {
        let input = try CassetteFileInput.openPrintingNotes(path: cassette, verb: "sweep")
        defer { input.remove() }
        let url = input.url
        let plan: FaultSweepPlan
        do {
            let chosen = faults.isEmpty ? InteractionFault.allCases : try faults.map { name throws(FaultSweepError) in try InteractionFault(named: name) }
            let knownFailures = try known.map { text throws(FaultSweepError) in try KnownFailure(text) }
            plan = try FaultSweepPlan(cassette: url, faults: chosen, interactions: interactions.map { InteractionPattern($0) },
                                      known: knownFailures)
        } catch {
            throw CLIError(error.description)
        }
        if list {
            for pair in plan.pairs { Console.out(pair.name + (pair.isKnown ? " (known failure)" : "")) }
            for skipped in plan.skipped { Console.out(skipped.description) }
            return
        }
        var results: [FaultSweepReport.Result] = []
        for pair in plan.pairs {
            let server = try StubServer(configuration: StubServer.Configuration(host: "127.0.0.1"))
            defer { server.stop() }
            var base = CassetteConfiguration()
            try matchOptions.apply(to: &base)
            try server.serve(cassette: url, configuration: pair.configuration(base))
            let ending = try ChildCommand(arguments: command)
                .run(adding: FaultSweepRun.environment(for: pair, serverURL: server.baseURL), limit: runTimeout)
            let result = switch ending {
            case .exited(let status): FaultSweepRun.result(for: pair, status: status)
            case .signalled(let signal): FaultSweepRun.result(for: pair, status: -1, signal: signal)
            case .timedOut:
                FaultSweepReport.Result(pair, passed: false, message: "still running after \(runTimeout) s: killed")
            }
            Console.err(result.description)
            results.append(result)
        }
        let report = FaultSweepReport(cassette: input.isConverted ? cassette : url.path, results: results, skipped: plan.skipped)
        Console.out(report.text)
        if let json { try OutputFile.write(report.json(), to: json, what: "the JSON report") }
        if let junit { try OutputFile.write(Data(FaultSweepRun.junit(report).xml().utf8), to: junit, what: "the JUnit report") }
        if !report.succeeded { throw ExitCode(1) }
    }
}
