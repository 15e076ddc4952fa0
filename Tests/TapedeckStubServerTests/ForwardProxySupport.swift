import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Two local upstreams under production-like names, and what a forward proxy needs to reach them: an HTTPS one
/// for `api.example.test` (its own CA) and a plain one for `plain.example.test`, both on 127.0.0.1 through
/// connect-to routes, so no name is ever looked up.
struct ProxyUpstreams {
    let secure: StubServer
    let plain: StubServer

    static let secureHost = "api.example.test"
    static let plainHost = "plain.example.test"

    init() throws {
        secure = try StubServer.https(hostNames: [Self.secureHost])
        plain = try StubServer()
        for server in [secure, plain] {
            server.route(.get, "/hello") { request in
                .text("hello from \(request.headers["Host"] ?? "?")")
            }
            server.route(.post, "/echo") { request in .text(String(decoding: request.body, as: UTF8.self)) }
            server.route(.get, "/me") { request in
                .text(request.headers["Authorization"] == nil ? "anonymous" : "signed in")
            }
        }
    }

    /// The proxy's upstream settings: routes to the two servers and trust in the HTTPS one's CA.
    var curlConfiguration: CurlTransport.Configuration {
        CurlTransport.Configuration(
            connectTo: ["\(Self.secureHost):443:127.0.0.1:\(secure.port)", "\(Self.plainHost):80:127.0.0.1:\(plain.port)"],
            trustedCertificates: secure.configuration.trustedCertificates)
    }

    /// A proxy configuration covering both hosts, logging into `log`.
    func proxyConfiguration(log: Locked<[String]>, allowedHosts: Set<String>? = [secureHost, plainHost],
                            passthrough: Bool = false) -> ForwardProxy.Configuration {
        ForwardProxy.Configuration(allowedHosts: allowedHosts, passthrough: passthrough, upstream: curlConfiguration,
                                   environment: [:], log: { line in log.withLock { $0.append(line) } })
    }

    func stop() {
        secure.stop()
        plain.stop()
    }
}

extension ForwardProxy {
    /// A curl transport that sends everything through this proxy and trusts its CA.
    func client() -> CurlTransport {
        CurlTransport(configuration: CurlTransport.Configuration(
            trustedCertificates: [certificateAuthority.trustAnchor], proxy: proxyURL.absoluteString))
    }
}

/// The requests the proxy tests send: HTTPS and plain, with secrets the default redaction removes.
enum ProxiedRequests {
    static let secrets = ["PROXY-BEARER-SECRET-1", "PROXY-QUERY-SECRET-2"]

    static func all() -> [HTTPRequest] {
        [
            HTTPRequest(url: URL(string: "https://\(ProxyUpstreams.secureHost)/hello")!),
            HTTPRequest(url: URL(string: "https://\(ProxyUpstreams.secureHost)/me?api_key=\(secrets[1])")!,
                        headers: ["Authorization": "Bearer \(secrets[0])"]),
            HTTPRequest(method: .post, url: URL(string: "https://\(ProxyUpstreams.secureHost)/echo")!,
                        headers: ["Content-Type": "text/plain"], body: .data(Data("ping".utf8))),
            HTTPRequest(url: URL(string: "http://\(ProxyUpstreams.plainHost)/hello")!),
        ]
    }

    static let expectedBodies = ["hello from api.example.test", "signed in", "ping", "hello from plain.example.test"]
}
