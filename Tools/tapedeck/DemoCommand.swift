import ArgumentParser
import Foundation
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// `tapedeck demo`: starts the embedded stub server and drives it through the live libcurl transport.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the embedded stub server and run data, upload and download requests through the live transport.",
        discussion: "Everything stays on 127.0.0.1; no network is needed."
    )

    @Option(name: .long, help: "Size of the download, in bytes.")
    var downloadBytes: Int64 = 32 << 20

    func run() async throws {
        let server = try StubServer()
        defer { server.stop() }
        DemoRoutes.install(on: server)
        print("Stub server (libmicrohttpd) listening on \(server.baseURL)")
        print("Live transport: CurlTransport on libcurl \(CurlTransport.libcurlVersion)\n")

        let transport = CurlTransport()
        let downloadFile = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-demo-\(getpid()).bin")
        defer { try? FileManager.default.removeItem(at: downloadFile) }

        let steps: [(String, HTTPRequest)] = [
            ("data: GET JSON", HTTPRequest(url: server.url("/get?greeting=hello"), headers: ["Accept": "application/json"])),
            ("data: POST JSON", HTTPRequest(
                method: .post, url: server.url("/post"), headers: ["Content-Type": "application/json"],
                body: .data(Data(#"{"name":"tapedeck","mode":"live"}"#.utf8)))),
            ("upload: PUT 4 MiB", HTTPRequest(method: .put, url: server.url("/upload"), body: .data(Data(count: 4 << 20)))),
            ("download: GET to file", HTTPRequest(url: server.url("/bytes/\(downloadBytes)"), responseBody: .file(downloadFile))),
            ("error: refused", HTTPRequest(url: URL(string: "http://127.0.0.1:1/")!)),
        ]

        var table = DemoTable()
        for (name, request) in steps {
            let started = ContinuousClock.now
            do {
                let response = try await transport.send(request)
                table.add(name: name, request: request, outcome: "\(response.statusCode)",
                          bytes: response.body.byteCount, elapsed: ContinuousClock.now - started,
                          reused: response.metrics.connectionReused)
            } catch let error as URLError {
                table.add(name: name, request: request, outcome: "URLError \(error.code.rawValue)",
                          bytes: 0, elapsed: ContinuousClock.now - started, reused: false)
            }
        }
        print(table.render())
        print("\nThe server journaled \(server.journal.entries.count) requests:")
        for entry in server.journal.entries {
            print("  #\(entry.sequenceNumber) \(entry.method) \(entry.path)\(entry.query.map { "?\($0)" } ?? "") body \(entry.bodyLength) B")
        }
    }
}

/// The demo's routes: a small httpbin-like set.
enum DemoRoutes {
    static func install(on server: StubServer) {
        server.route(.get, "/get") { request in
            let args = request.queryItems.map { "\"\($0.name)\":\"\($0.value ?? "")\"" }.joined(separator: ",")
            return .json(Data(#"{"args":{\#(args)},"url":"\#(request.path)"}"#.utf8))
        }
        server.route(.post, "/post") { request in
            .json(Data(#"{"received":\#(request.bodyLength),"json":\#(String(decoding: request.body, as: UTF8.self))}"#.utf8))
        }
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

/// A fixed-width table of demo results.
struct DemoTable {
    private var rows: [[String]] = [["step", "request", "result", "bytes", "time", "reused"]]

    mutating func add(name: String, request: HTTPRequest, outcome: String, bytes: Int64, elapsed: Duration, reused: Bool) {
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        rows.append([name, "\(request.method) \(request.url.path)", outcome, "\(bytes)",
                     String(format: "%.1f ms", milliseconds), reused ? "yes" : "no"])
    }

    func render() -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
