import ArgumentParser
import Foundation
import TapedeckCLICore
import TapedeckCassette
import TapedeckStubServer
#if canImport(Glibc)
import Glibc
#endif

/// `tapedeck record --upstream URL --cassette FILE`: a recording reverse proxy any HTTP client can point at; with
/// `--proxy` instead of `--upstream`, a recording forward proxy (HTTP_PROXY / HTTPS_PROXY) that intercepts HTTPS.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a recording proxy: forward every request to --upstream (or, with --proxy, to the host it names) and record each exchange into --cassette.",
        discussion: """
            Point any HTTP client (curl, a browser, a test suite in another language) at the printed address. \
            Secrets are redacted before anything is written. Answers are relayed as they arrive (an event stream reaches \
            the client at its live pace), and each exchange is on disk before its answer ends. \
            A request carrying a redaction placeholder ([REDACTED]) goes upstream with the placeholder filled \
            (--secret, --secrets-file, TAPEDECK_SECRET_<NAME>), and --header-env/--bearer-env add credentials per \
            host; the cassette keeps the placeholder and never the secret. \
            Ctrl-C or SIGTERM waits for exchanges under way and saves the cassette. With --proxy the client keeps \
            its URLs and uses the printed address as its HTTP and HTTPS proxy; HTTPS is intercepted with a CA made \
            for this run, written to --ca-out for the client to trust. \
            --match stores the match rules every replay of the cassette uses (serve, fetch, CassetteTransport); \
            without it, a recording of GraphQL requests stores the GraphQL rule. When recording ends, recorded \
            requests the rules cannot tell apart although their bodies differ are named, with the rule that would \
            separate them.
            """
    )

    @Option(name: .long, help: "The base URL requests are forwarded to, e.g. https://api.example.com/v1.")
    var upstream: String?

    @Option(name: .long, help: "The cassette to record into.")
    var cassette: String

    @Option(name: .long, help: "Where to listen, HOST:PORT (port 0 picks a free one).")
    var listen: String = "127.0.0.1:8080"

    @Option(name: .long, help: "newEpisodes (keep what is recorded, add what is new) or all (re-record everything).")
    var mode: String = "newEpisodes"

    @OptionGroup var proxyOptions: ProxyOptions

    @OptionGroup var secrets: SecretOptions

    @OptionGroup var matchOptions: MatchOptions

    func validate() throws {
        if proxyOptions.proxy == (upstream != nil) {
            throw ValidationError("give either --upstream URL (a reverse proxy) or --proxy (a forward proxy)")
        }
        if !proxyOptions.givenWithoutProxy.isEmpty {
            throw ValidationError(proxyOptions.givenWithoutProxy.joined(separator: ", ") + " only apply with --proxy")
        }
    }

    func run() async throws {
        guard let recordMode = RecordMode(name: mode), recordMode == .newEpisodes || recordMode == .all else {
            throw CLIError("--mode \(mode): record with newEpisodes or all")
        }
        if let refusal = CassetteFileInput.refusal(forWriting: cassette, verb: "record") { throw CLIError(refusal) }
        let (host, port) = try Self.parse(listen: listen)
        var cassetteConfiguration = CassetteConfiguration(secrets: try secrets.resolve())
        try matchOptions.apply(to: &cassetteConfiguration)
        let waiter = SignalWaiter(signals: [SIGINT, SIGTERM])
        guard let upstream else {
            let proxy = try proxyOptions.start(cassette: cassette, mode: .record(recordMode), host: host, port: port,
                                               configuration: cassetteConfiguration)
            try await recordUntilSignalled(waiter, count: { proxy.recordedInteractionCount },
                                           finish: { try await proxy.finishRecording() }, stop: proxy.stop)
            return
        }
        guard let upstreamURL = URL(string: upstream), upstreamURL.scheme != nil, upstreamURL.host != nil else {
            throw CLIError("--upstream \(upstream) is not an absolute http(s) URL")
        }
        let server: StubServer
        do {
            // Connections wait until the recording route is in: none is answered "no stub matches" or goes unrecorded.
            server = try StubServer(configuration: StubServer.Configuration(host: host, port: port), accepting: false)
            try server.recordProxy(upstream: upstreamURL, cassette: URL(fileURLWithPath: cassette), mode: recordMode,
                                   configuration: cassetteConfiguration)
        } catch { throw CLIError("\(error)") }
        server.startAccepting()
        Console.out("Recording \(upstreamURL.absoluteString) into \(cassette) through \(server.baseURL.absoluteString)")
        try await recordUntilSignalled(waiter, count: { server.recordedInteractionCount },
                                       finish: { try await server.finishRecording() }, stop: server.stop)
    }

    /// Reports recordings until SIGINT or SIGTERM, then saves the cassette with `finish`, stops with `stop`, and
    /// says how many interactions were saved.
    private func recordUntilSignalled(
        _ waiter: SignalWaiter, count: @escaping @Sendable () -> Int,
        finish: () async throws -> CassetteSummary?, stop: () -> Void
    ) async throws {
        Console.out("Press Ctrl-C to stop and save.")
        let received = await Self.reportRecordings(until: waiter, count: count)
        do {
            let summary = try await finish()
            stop()
            Console.out("Received \(received == SIGINT ? "SIGINT" : "SIGTERM"); saved \(summary?.interactionCount ?? 0) "
                        + "interaction(s) in \(cassette).")
            for note in summary?.notes ?? [] { Console.err("note: \(note)") }
            if let drift = summary?.drift, !drift.isEmpty {
                Console.out("\(drift.count) answer(s) drifted from the ones recorded before (status, media type or JSON shape):")
                for line in drift { Console.out("  \(line)") }
            }
        } catch {
            stop()
            throw CLIError("\(error)")
        }
    }

    /// Prints the number of interactions recorded whenever it changes (in place on a terminal) until SIGINT or
    /// SIGTERM, and returns the signal.
    static func reportRecordings(until waiter: SignalWaiter, count: @escaping @Sendable () -> Int) async -> Int32 {
        let live = isatty(STDOUT_FILENO) == 1
        let counter = Task {
            var last = -1
            while !Task.isCancelled {
                let current = count()
                if current != last {
                    let line = live ? "\r\(current) interaction(s) recorded" : "\(current) interaction(s) recorded\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                    last = current
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        let received = await waiter.next()
        counter.cancel()
        if live { FileHandle.standardOutput.write(Data("\n".utf8)) }
        return received
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `PORT`.
    static func parse(listen: String) throws -> (String, UInt16) {
        if let port = UInt16(listen) { return ("127.0.0.1", port) }
        guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
            throw CLIError("--listen \(listen): expected HOST:PORT, e.g. 127.0.0.1:8080")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw CLIError("--listen \(listen): the host is missing") }
        return (host, port)
    }
}
