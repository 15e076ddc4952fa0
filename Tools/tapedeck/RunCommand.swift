import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCLICore
import TapedeckStubServer
#if canImport(Glibc)
import Glibc
#endif

/// `tapedeck run --cassette FILE [--record] -- COMMAND …`: replays (or records) every HTTP and HTTPS request a
/// command makes, through the forward proxy, with the proxy and its CA set in the command's environment.
///
/// ```sh
/// tapedeck run --record --cassette api.json -- pytest tests/integration   # record what the tests send
/// tapedeck run --cassette api.json -- pytest tests/integration            # replay it, no network needed
/// ```
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a command with its HTTP and HTTPS traffic replayed from a cassette (or recorded into it, with --record).",
        discussion: """
            Starts the forward proxy on a free loopback port and runs COMMAND with the proxy and the proxy's CA in \
            its environment the ways common runtimes read them: HTTP_PROXY, HTTPS_PROXY and their lower-case forms, \
            SSL_CERT_FILE (OpenSSL: Python's ssl, urllib and httpx, Go, Ruby, .NET), CURL_CA_BUNDLE, \
            REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS, GIT_SSL_CAINFO, PIP_CERT, NPM_CONFIG_CAFILE, CARGO_HTTP_CAINFO \
            and AWS_CA_BUNDLE; NO_PROXY and no_proxy are emptied, so that requests to loopback servers go through \
            the proxy too (Go never proxies loopback, whatever the environment says). The command keeps its \
            standard streams; Tapedeck writes only to standard error. \
            The exit status is the command's (128 plus the signal when a signal ended it). SIGTERM is passed on to \
            the command, and so is SIGINT unless it came from the terminal, which sends it to the command itself. \
            When the command ends, a recording is saved (exchanges under way are waited for) and a replay reports \
            the requests it could not match, which were answered 404 with an X-Tapedeck-Unmatched header.
            """
    )

    @Option(name: .long, help: "The cassette to replay, or to record into with --record.")
    var cassette: String

    @Flag(name: .long, help: "Record the command's traffic instead of replaying it (see --mode).")
    var record = false

    @Option(name: .long, help: "With --record: newEpisodes (keep what is recorded, add what is new) or all (re-record everything).")
    var mode: String = "newEpisodes"

    @OptionGroup var proxySettings: ForwardProxySettings

    @OptionGroup var secrets: SecretOptions

    @OptionGroup var matchOptions: MatchOptions

    @Argument(parsing: .postTerminator, help: "The command to run and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the command to run after --, e.g. tapedeck run --cassette api.json -- curl http://api.example.test/") }
        if !record && mode != "newEpisodes" { throw ValidationError("--mode applies with --record") }
    }

    func run() async throws {
        let proxyMode: ForwardProxy.Mode
        if record {
            guard let recordMode = RecordMode(name: mode), recordMode == .newEpisodes || recordMode == .all else {
                throw CLIError("--mode \(mode): record with newEpisodes or all")
            }
            proxyMode = .record(recordMode)
        } else {
            proxyMode = .replay
        }
        var cassetteConfiguration = CassetteConfiguration(secrets: try secrets.resolve())
        try matchOptions.apply(to: &cassetteConfiguration)
        // Recording writes the cassette back, so it must be one; a replay takes any recorded traffic.
        if record, let refusal = CassetteFileInput.refusal(forWriting: cassette, verb: "run --record") { throw CLIError(refusal) }
        let input = try CassetteFileInput.openPrintingNotes(path: cassette, verb: "run")
        defer { input.remove() }
        // Installed before the command starts, so that no signal meant for it is lost in between.
        let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
        let proxy = try proxySettings.start(cassette: input.url.path, mode: proxyMode, host: "127.0.0.1", port: 0,
                                            configuration: cassetteConfiguration, say: { _ in })
        Console.err("tapedeck: \(record ? "recording into" : "replaying") \(cassette) through \(proxy.proxyURL.absoluteString)")
        for note in proxy.servingSummary()?.notes ?? [] { Console.err("note: \(note)") }
        let ending: ChildCommand.Ending
        do {
            ending = try await Self.run(ChildCommand(arguments: command), adding: environment(proxy), forwarding: waiter)
        } catch {
            proxy.stop()
            throw error
        }
        try await report(proxy)
        if ending.shellStatus != 0 { throw ExitCode(ending.shellStatus) }
    }

    /// The variables the command gets on top of the tool's own: the proxy and its CA (``ForwardProxy/environment(certificateAuthorityFile:)``),
    /// and no proxy exceptions.
    private func environment(_ proxy: ForwardProxy) -> [String: String?] {
        var variables: [String: String?] = ["NO_PROXY": "", "no_proxy": ""]
        for variable in proxy.environment(certificateAuthorityFile: proxySettings.caFile) { variables[variable.name] = variable.value }
        return variables
    }

    /// Runs `child` to its end on a thread of its own, passing on the signals the tool receives meanwhile.
    static func run(_ child: ChildCommand, adding environment: [String: String?], forwarding waiter: SignalWaiter) async throws -> ChildCommand.Ending {
        let started = try child.start(adding: environment)
        let forwarder = Task {
            while !Task.isCancelled {
                let signal = await waiter.next()
                guard !Task.isCancelled else { return }
                if signal != SIGINT || !Self.terminalSentInterrupts { started.send(signal) }
            }
        }
        defer { forwarder.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try started.wait() })
            }
        }
    }

    /// Whether a SIGINT most likely came from the terminal: this process's group is the terminal's foreground group,
    /// to which the terminal sends Ctrl-C, so the command (in the same group) received it as well.
    private static var terminalSentInterrupts: Bool {
        isatty(STDIN_FILENO) == 1 && tcgetpgrp(STDIN_FILENO) == getpgrp()
    }

    /// Saves a recording, or says what a replay could not match; on standard error.
    private func report(_ proxy: ForwardProxy) async throws {
        if record {
            let summary: CassetteSummary?
            do { summary = try await proxy.finishRecording() } catch {
                proxy.stop()
                throw CLIError("\(error)")
            }
            proxy.stop()
            Console.err("tapedeck: saved \(summary?.interactionCount ?? 0) interaction(s) in \(cassette)")
            for note in summary?.notes ?? [] { Console.err("note: \(note)") }
        } else {
            let summary = proxy.servingSummary()
            proxy.stop()
            guard let summary else { return }
            Console.err("tapedeck: \(summary.playedCount) of \(summary.interactionCount) interaction(s) played, "
                        + "\(summary.unmatched.count) request(s) unmatched")
            for request in summary.unmatched { Console.err("  unmatched: \(request)") }
        }
    }
}
