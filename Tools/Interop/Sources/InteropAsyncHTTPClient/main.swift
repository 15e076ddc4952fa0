import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

// AsyncHTTPClient, configured with nothing but Tapedeck's forward proxy and its CA, records plain and intercepted
// HTTPS requests from two local upstreams (named api.example.test and plain.example.test, reached on 127.0.0.1
// through the proxy's connect-to routes), then replays them with the upstreams stopped. Prints what it checked;
// exits 1 on any difference.

struct InteropFailure: Error, CustomStringConvertible {
    let description: String
}

let bearer = "ahc-interop-bearer-secret-31"
let urls = ["https://api.example.test/hello", "https://api.example.test/me", "http://plain.example.test/hello"]
let expected = ["200 hello from api.example.test", "200 signed in", "200 hello from plain.example.test"]

/// Fetches every URL through `proxy` with one AsyncHTTPClient (keep-alive inside it): `STATUS BODY` each.
func fetch(through proxy: ForwardProxy) async throws -> [String] {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(proxy.certificateAuthorityPEM.utf8)))
    var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
    configuration.proxy = .server(host: proxy.host, port: Int(proxy.port))
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    var lines: [String] = []
    do {
        for url in urls {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
            do {
                let response = try await client.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                lines.append("\(response.status.code) \(String(buffer: body))")
            } catch {
                throw InteropFailure(description: "GET \(url) through \(proxy.proxyURL.absoluteString): \(error)")
            }
        }
    } catch {
        try await client.shutdown()
        throw error
    }
    try await client.shutdown()
    return lines
}

func check(_ label: String, _ actual: [String]) throws {
    print("\(label): \(actual)")
    guard actual == expected else { throw InteropFailure(description: "\(label): expected \(expected), got \(actual)") }
}

func run() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-interop-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let cassette = folder.appendingPathComponent("ahc.json")

    let secure = try StubServer.https(hostNames: ["api.example.test"])
    let plain = try StubServer()
    for server in [secure, plain] {
        server.route(.get, "/hello") { request in .text("hello from \(request.headers["Host"] ?? "?")") }
        server.route(.get, "/me") { request in .text(request.headers["Authorization"] == nil ? "anonymous" : "signed in") }
    }
    let upstream = CurlTransport.Configuration(
        connectTo: ["api.example.test:443:127.0.0.1:\(secure.port)", "plain.example.test:80:127.0.0.1:\(plain.port)"],
        trustedCertificates: secure.configuration.trustedCertificates)
    let configuration = ForwardProxy.Configuration(allowedHosts: ["api.example.test", "plain.example.test"],
                                                   upstream: upstream, environment: [:])

    let recorder = try ForwardProxy(cassette: cassette, mode: .record(.all), configuration: configuration)
    try check("recorded through the proxy", try await fetch(through: recorder))
    let summary = try await recorder.finishRecording()
    recorder.stop()
    guard summary?.interactionCount == urls.count else {
        throw InteropFailure(description: "the cassette holds \(summary?.interactionCount ?? 0) interactions, not \(urls.count)")
    }
    guard try Data(contentsOf: cassette).range(of: Data(bearer.utf8)) == nil else {
        throw InteropFailure(description: "the bearer token reached the cassette unredacted")
    }
    secure.stop()
    plain.stop()

    let replayer = try ForwardProxy(cassette: cassette, mode: .replay, configuration: configuration)
    defer { replayer.stop() }
    try check("replayed with the upstreams stopped", try await fetch(through: replayer))
    guard let served = replayer.servingSummary(), served.playedCount == urls.count, served.unmatched.isEmpty else {
        throw InteropFailure(description: "the replay did not play every interaction: \(String(describing: replayer.servingSummary()))")
    }
    print("AsyncHTTPClient through Tapedeck's forward proxy: recorded and replayed \(urls.count) requests")
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("InteropAsyncHTTPClient: \(error)\n".utf8))
    exit(1)
}
