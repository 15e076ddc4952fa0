import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// HTTPS with a CA generated at run time, and `server.transport()` routing production host names here.
    @Suite struct HostRoutingTLSTests {
        @Test func theClientKeepsItsProductionBaseURL() async throws {
            let server = try StubServer.https(hostNames: ["api.example.com", "auth.example.com"])
            defer { server.stop() }
            server.route(.get, "/v1/me", response: .json(["name": "Ada"]))
            let client = server.transport()
            let response = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/v1/me")!))
            #expect(response.statusCode == 200)
            #expect(response.text == #"{"name":"Ada"}"#)
            #expect(!response.peerCertificates.isEmpty)
            #expect(server.journal.entries.first?.headers["Host"] == "api.example.com", "the Host header is the production one")
            let other = try await client.send(HTTPRequest(url: URL(string: "https://auth.example.com:8443/v1/me")!))
            #expect(other.statusCode == 200, "any port of a routed name reaches the server")
        }

        @Test func aPlainTransportDoesNotTrustTheGeneratedCA() async throws {
            let server = try StubServer.https(hostNames: ["api.example.com"])
            defer { server.stop() }
            server.route(.get, "/", response: .text("x"))
            let routedOnly = CurlTransport(configuration: .init(connectTo: server.connectToEntries))
            let code = await urlErrorCode {
                _ = try await routedOnly.send(HTTPRequest(url: URL(string: "https://api.example.com/")!))
            }
            #expect(code == .serverCertificateUntrusted)
        }

        @Test func aNameTheLeafDoesNotCarryIsRefused() async throws {
            let authority = try TestCertificateAuthority()
            let server = try StubServer(configuration: .init(
                tls: try authority.issue(for: ["api.example.com"]), hostNames: ["api.example.com", "other.example.com"],
                trustedCertificates: [authority.trustAnchor]))
            defer { server.stop() }
            server.route(.get, "/", response: .text("x"))
            let client = server.transport()
            #expect(try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/")!)).statusCode == 200)
            let code = await urlErrorCode {
                _ = try await client.send(HTTPRequest(url: URL(string: "https://other.example.com/")!))
            }
            #expect(code == .serverCertificateUntrusted)
        }

        @Test func theLeafAlsoNamesTheLoopbackAddresses() async throws {
            let server = try StubServer.https(hostNames: ["api.example.com"])
            defer { server.stop() }
            server.route(.get, "/", response: .text("direct"))
            let tls = TLSSettings(trustedCertificates: server.configuration.trustedCertificates)
            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/"), tls: tls))
            #expect(response.text == "direct")
        }

        @Test func plainHTTPRoutingWorksToo() async throws {
            try await withStubServer(.init(hostNames: ["api.example.com"])) { server in
                server.route(.get, "/v1/ping", response: .text("pong"))
                let response = try await server.transport().send(HTTPRequest(url: URL(string: "http://api.example.com/v1/ping")!))
                #expect(response.text == "pong")
            }
        }

        @Test func routingWorksToAnIPv6Listener() async throws {
            try await withStubServer(.init(host: "::1", hostNames: ["api.example.com"])) { server in
                #expect(server.connectToEntries == ["api.example.com::[::1]:\(server.port)"])
                server.route(.get, "/v6", response: .text("six"))
                let response = try await server.transport().send(HTTPRequest(url: URL(string: "http://api.example.com/v6")!))
                #expect(response.text == "six")
            }
        }

        @Test func invalidHostNamesAreRefusedWithTheName() {
            let error = #expect(throws: TestCertificateAuthority.Error.self) {
                try TestCertificateAuthority().issue(for: ["bad host!"])
            }
            #expect(error?.description == #""bad host!" is neither a DNS name nor an IP address literal"#)
            #expect(TestCertificateAuthority.isValidDNSName("*.example.com"))
            #expect(!TestCertificateAuthority.isValidDNSName("-a.example.com"))
        }
    }
}
