import ArgumentParser
import Foundation
import Tapedeck
import TapedeckCassette
import TapedeckCLICore
import TapedeckCurl
import TapedeckCore

/// `tapedeck fetch URL`: a curl-like client on Tapedeck's session manager.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Send one HTTP request with Tapedeck's client stack (libcurl, or a cassette) and print the response body.",
        discussion: """
            Runs a SessionManager over CurlTransport, or over a CassetteTransport (replaying or recording through \
            libcurl) with --cassette. Progress bars are drawn on stderr when it is a terminal. Any HTTP status is \
            printed; a transport failure exits with status 1 and the URLError explained.

            Examples:
              tapedeck fetch http://127.0.0.1:8080/get -i
              tapedeck fetch -X POST -H 'Content-Type: application/json' -d '{"a":1}' http://127.0.0.1:8080/post
              tapedeck fetch http://127.0.0.1:8080/bytes/1000000 -o blob.bin
              tapedeck fetch https://api.example.com/me --cassette me.json --mode once
            """
    )

    @Argument(help: "The URL to fetch.")
    var url: String

    @Option(name: [.customShort("o"), .long], help: "Write the body to this file (a download task) instead of stdout.")
    var output: String?

    @Option(name: .long, help: "Replay from (or record into) this cassette instead of going to the network directly.")
    var cassette: String?

    @Option(name: .long, help: "The cassette's record mode: replay, once, newEpisodes, all, passthrough or spy.")
    var mode: String = "once"

    @Option(name: .customShort("X"), help: "The request method (default GET, or POST when a body is given).")
    var method: String?

    @Option(name: .customShort("H"), help: "A request header, 'Name: value' (repeatable).")
    var header: [String] = []

    @Option(name: .customShort("d"), help: "Send this text as the request body.")
    var data: String?

    @Option(name: .customLong("data-binary"), help: "Send a body: '@FILE' streams a file, anything else is sent as is.")
    var dataBinary: String?

    @Flag(name: [.customShort("i"), .long], help: "Print the status line and response headers before the body.")
    var include = false

    @Flag(name: .long, help: "Write a compressed body as it crossed the wire instead of decoded (live and in replay).")
    var raw = false

    @OptionGroup var matchOptions: MatchOptions

    @Option(name: .long, help: "Seconds without progress before the request times out.")
    var timeout: Double = 60

    func validate() throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme.lowercased()), parsed.host != nil else {
            throw ValidationError("'\(url)' is not an absolute http or https URL")
        }
        if data != nil, dataBinary != nil { throw ValidationError("give -d or --data-binary, not both") }
        if RecordMode(name: mode) == nil {
            throw ValidationError("--mode \(mode) is not a record mode; use one of \(RecordMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for field in header where !field.contains(":") { throw ValidationError("-H '\(field)' is not 'Name: value'") }
    }

    func run() async throws {
        var request = HTTPRequest(url: URL(string: url)!, timeoutInterval: timeout)
        for field in header {
            let parts = field.split(separator: ":", maxSplits: 1)
            request.headers.add(name: parts[0].trimmingCharacters(in: .whitespaces), value: parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        let body = try requestBody()
        request.method = HTTPMethod(rawValue: (method ?? (body.isEmpty ? "GET" : "POST")).uppercased())

        let transport: any HTTPTransport
        var cassetteTransport: CassetteTransport?
        // One content-coding rule, live or replayed: decoded bytes unless --raw.
        let live = CurlTransport(configuration: CurlTransport.Configuration(automaticDecompression: !raw))
        var input: CassetteFileInput?
        defer { input?.remove() }
        if let cassette {
            var configuration = CassetteConfiguration()
            configuration.decodesContent = !raw
            try matchOptions.apply(to: &configuration)
            let recordMode = RecordMode(name: mode)!
            // A mode that may record writes the cassette back, so it must be one; a replay takes any recorded traffic.
            if recordMode != .replay, let refusal = CassetteFileInput.refusal(forWriting: cassette, verb: "fetch --mode \(mode)") {
                throw CLIError(refusal)
            }
            do {
                let opened = try CassetteFileInput.openPrintingNotes(path: cassette, verb: "fetch")
                input = opened
                let replayer = try CassetteTransport(cassette: opened.url, mode: recordMode, upstream: live,
                                                     configuration: configuration)
                cassetteTransport = replayer
                transport = replayer
            } catch { throw CLIError("\(error)") }
        } else {
            transport = live
        }
        let manager = SessionManager(transport: transport,
                                     responseSerializer: HTTPResponseSerializer(validation: ResponseValidation(acceptableStatusCodes: nil)))
        let bar = ProgressLine(enabled: Console.stderrIsTerminal)
        let task: SessionTask
        if let output {
            let destination = URL(fileURLWithPath: output)
            request.body = body
            task = manager.downloadTask(with: request, progress: { bar.update("download", $0) }, destination: { _, _ in destination })
        } else if !body.isEmpty {
            task = manager.uploadTask(with: request, from: body, progress: { bar.update("upload  ", $0) })
        } else {
            task = manager.dataTask(with: request, uploadProgress: nil, downloadProgress: { bar.update("download", $0) })
        }
        task.resume()
        let result = await task.result
        bar.finish()
        if let cassetteTransport {
            do { _ = try cassetteTransport.finish() } catch { Console.err("tapedeck fetch: \(error)") }
        }
        if let error = result.error, result.response == nil || error is URLError || error is CassetteError {
            throw CLIError(Self.explain(error, url: url))
        }
        if include, let head = result.response {
            Console.out("\(head.version) \(head.statusCode)\(head.reasonPhrase.isEmpty ? "" : " " + head.reasonPhrase)")
            for field in head.headers { Console.out("\(field.name): \(field.value)") }
            Console.out()
        }
        if let output {
            Console.err("Saved \(ByteCount.format(Int64((try? Data(contentsOf: URL(fileURLWithPath: output)).count) ?? 0))) to \(output)")
        } else if let data = result.data {
            Console.outRaw(data)
        }
    }

    private func requestBody() throws -> HTTPRequestBody {
        if let data { return .data(Data(data.utf8)) }
        guard let dataBinary else { return .none }
        guard dataBinary.hasPrefix("@") else { return .data(Data(dataBinary.utf8)) }
        let path = String(dataBinary.dropFirst())
        guard FileManager.default.isReadableFile(atPath: path) else { throw CLIError("--data-binary @\(path): no readable file there") }
        return .file(URL(fileURLWithPath: path))
    }

    /// `URL: URLError -1004 cannotConnectToHost: nothing accepted the connection … (curl's message)`.
    static func explain(_ error: any Error, url: String) -> String {
        guard let urlError = error as? URLError else { return "\(url): \(error)" }
        let code = urlError.code.rawValue
        var text = "\(url): URLError \(code) \(URLErrorNames.name(code))"
        if let explanation = URLErrorNames.explanation(code) { text += ": \(explanation)" }
        let message = urlError.userInfo[NSLocalizedDescriptionKey] as? String ?? urlError.localizedDescription
        text += "\n  \(message)"
        if let transportMessage = urlError.transportMessage, transportMessage != message { text += "\n  libcurl: \(transportMessage)" }
        return text
    }
}

/// A progress bar on stderr, redrawn at most every 100 ms; silent when stderr is not a terminal.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let state = Locked<(drawn: Bool, last: ContinuousClock.Instant?)>((false, nil))

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ label: String, _ progress: Progress) {
        guard enabled else { return }
        let completed = progress.completedUnitCount, total = progress.totalUnitCount
        let now = ContinuousClock.now
        let draw = state.withLock { state -> Bool in
            let done = total > 0 && completed >= total
            if let last = state.last, now - last < .milliseconds(100), !done { return false }
            state = (true, now)
            return true
        }
        if draw { Console.errRaw("\r" + ProgressBar.render(label: label, completed: completed, total: total > 0 ? total : nil) + "\u{1B}[K") }
    }

    func finish() {
        if state.withLock({ $0.drawn }) { Console.errRaw("\n") }
    }
}
