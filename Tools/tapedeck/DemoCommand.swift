import ArgumentParser
import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// `tapedeck demo`: the README's main job. Starts the embedded stub server, runs data, upload and download
/// requests through the live libcurl transport while recording them into a cassette, stops the server, replays the
/// cassette in process, and prints both runs side by side.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record data, upload and download requests from the embedded stub server over the live transport, then replay them.",
        discussion: "Everything stays on 127.0.0.1; no network is needed. The replay runs with the server stopped."
    )

    @Option(name: .long, help: "Size of the download, in bytes.")
    var downloadBytes: Int64 = 8 << 20

    @Option(name: .long, help: "Keep the cassette at this path (by default it is written to a temporary folder and removed).")
    var cassette: String?

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-demo-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassetteURL = cassette.map { URL(fileURLWithPath: $0) } ?? folder.appendingPathComponent("demo.json")

        let server = try StubServer.httpbin()
        defer { server.stop() }
        DemoRoutes.install(on: server)
        print("Stub server (libmicrohttpd) listening on \(server.baseURL)")
        print("Live transport: CurlTransport on libcurl \(CurlTransport.libcurlVersion)")
        print("Cassette: \(cassetteURL.path)\n")

        let steps = DemoStep.all(server: server, downloadBytes: downloadBytes, folder: folder)
        let recorder = try CassetteTransport(cassette: cassetteURL, mode: .all, upstream: CurlTransport(), environment: [:])
        var recorded: [DemoResult] = []
        for step in steps { recorded.append(await step.run(over: recorder)) }
        let summary = try recorder.finish()
        let journaled = server.journal.entries.count
        server.stop()

        let player = try CassetteTransport(cassette: cassetteURL, mode: .replay, environment: [:])
        var replayed: [DemoResult] = []
        for step in steps { replayed.append(await step.run(over: player)) }
        try player.finish(requireAllPlayed: true)

        // The same cassette over real sockets: another stub server serves it; requests keep the recorded URLs and
        // are routed to it.
        let serving = try StubServer()
        defer { serving.stop() }
        try serving.serve(cassette: cassetteURL, origin: server.baseURL)
        let routed = CurlTransport(configuration: .init(connectTo: ["127.0.0.1:\(server.port):127.0.0.1:\(serving.port)"]))
        var served: [DemoResult] = []
        for step in steps { served.append(await step.run(over: routed)) }

        var table = DemoTable()
        for index in steps.indices {
            table.add(step: steps[index], results: [recorded[index], replayed[index], served[index]])
        }
        print(table.render())
        let same = steps.indices.allSatisfy {
            recorded[$0].fingerprint == replayed[$0].fingerprint && recorded[$0].fingerprint == served[$0].fingerprint
        }
        print("\nRecorded \(summary.interactionCount) interactions (the server journaled \(journaled) requests), stopped the "
              + "server, then replayed them in process and through a stub server serving the cassette: "
              + "\(same ? "identical results" : "RESULTS DIFFER").")
        if !same { throw ExitCode.failure }
    }
}

/// One request of the demo and what it is called.
struct DemoStep {
    let name: String
    let request: HTTPRequest

    static func all(server: StubServer, downloadBytes: Int64, folder: URL) -> [DemoStep] {
        [
            DemoStep(name: "data: GET JSON", request: HTTPRequest(
                url: server.url("/get?greeting=hello"), headers: ["Accept": "application/json"])),
            DemoStep(name: "data: POST JSON", request: HTTPRequest(
                method: .post, url: server.url("/post"), headers: ["Content-Type": "application/json"],
                body: .data(Data(#"{"name":"tapedeck","mode":"demo"}"#.utf8)))),
            DemoStep(name: "upload: PUT 4 MiB", request: HTTPRequest(
                method: .put, url: server.url("/upload"), body: .data(Data(count: 4 << 20)))),
            DemoStep(name: "download: GET to file", request: HTTPRequest(
                url: server.url("/bytes/\(downloadBytes)"), responseBody: .file(folder.appendingPathComponent("download.bin")))),
            DemoStep(name: "gzip: GET", request: HTTPRequest(url: server.url("/gzip"))),
            DemoStep(name: "error: 404", request: HTTPRequest(url: server.url("/status/404"))),
            DemoStep(name: "error: reset", request: HTTPRequest(url: server.url("/reset"))),
        ]
    }

    func run(over transport: any HTTPTransport) async -> DemoResult {
        let started = ContinuousClock.now
        do {
            let response = try await transport.send(request)
            var body = response.data ?? Data()
            if case .file(let url, _) = response.body { body = (try? Data(contentsOf: url)) ?? Data() }
            return DemoResult(outcome: "\(response.statusCode)", bytes: Int64(body.count),
                              fingerprint: "\(response.statusCode) \(DemoResult.hash(body))", elapsed: ContinuousClock.now - started)
        } catch let error as URLError {
            return DemoResult(outcome: "URLError \(error.code.rawValue)", bytes: 0, fingerprint: "URLError \(error.code.rawValue)",
                              elapsed: ContinuousClock.now - started)
        } catch {
            return DemoResult(outcome: "\(error)", bytes: 0, fingerprint: "\(error)", elapsed: ContinuousClock.now - started)
        }
    }
}

/// What one transport made of a demo step.
struct DemoResult {
    let outcome: String
    let bytes: Int64
    /// Status (or error code) and a hash of the body: equal fingerprints mean identical results.
    let fingerprint: String
    let elapsed: Duration

    /// FNV-1a, 64 bits, as hex.
    static func hash(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}

/// The demo's routes: a small httpbin-like set.
enum DemoRoutes {
    static func install(on server: StubServer) {
        server.add(Stub(RequestPattern(.get, "/reset"), fault: .reset))
        server.route(.put, "/upload") { request in
            .json(Data(#"{"received":\#(request.bodyLength),"sha256":"\#(request.bodySHA256)"}"#.utf8), status: 201)
        }
        server.route(.get, "/bytes/{n}") { request in
            guard let count = request.path.split(separator: "/").last.flatMap({ Int64($0) }), count >= 0 else {
                return .text("/bytes/{n} needs a byte count, got \(request.path)\n", status: 400)
            }
            return StubResponse(headers: ["Content-Type": "application/octet-stream"], body: .generated(length: count))
        }
    }
}

/// A fixed-width, side-by-side table of the live (recording), in-process replay and served-cassette runs.
struct DemoTable {
    private var rows: [[String]] = [["step", "request", "live (recording)", "time", "replay", "time",
                                     "served cassette", "time", "same"]]

    mutating func add(step: DemoStep, results: [DemoResult]) {
        var row = [step.name, "\(step.request.method) \(step.request.url.path)"]
        for result in results { row += ["\(result.outcome) \(result.bytes) B", Self.milliseconds(result.elapsed)] }
        row.append(Set(results.map(\.fingerprint)).count == 1 ? "yes" : "NO")
        rows.append(row)
    }

    static func milliseconds(_ elapsed: Duration) -> String {
        String(format: "%.1f ms", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }

    func render() -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
