import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    @Suite struct TLSTests {
        let transport = CurlTransport()

        private func request(_ server: StubServer, tls: TLSSettings) -> HTTPRequest {
            HTTPRequest(url: URL(string: "https://localhost:\(server.port)/secure")!, tls: tls)
        }

        @Test func aTrustedTestCAIsAccepted() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/secure", response: .text("secret"))
                let tls = TLSSettings(trustedCertificates: [.pem(Fixtures.data("ca.pem"))])
                let response = try await transport.send(request(server, tls: tls))
                #expect(response.data == Data("secret".utf8))
                let leaf = try #require(response.peerCertificates.first)
                let expectedLeaf = Fixtures.data("localhost.pem")
                #expect(String(decoding: expectedLeaf, as: UTF8.self).contains(leaf.base64EncodedString().prefix(40)))
                #expect(response.metrics.tlsHandshake > 0)
            }
        }

        @Test func theChainIsReportedOnReusedConnectionsToo() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/secure", response: .text("secret"))
                let tls = TLSSettings(trustedCertificates: [.pem(Fixtures.data("ca.pem"))])
                let started = ContinuousClock.now
                let first = try await transport.send(request(server, tls: tls))
                let second = try await transport.send(request(server, tls: tls))
                if ConnectionReuse.isPromised(since: started) { #expect(second.metrics.connectionReused) }
                #expect(second.peerCertificates == first.peerCertificates)
                #expect(!second.peerCertificates.isEmpty)
            }
        }

        @Test func aCAGivenAsDERIsAcceptedToo() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/secure", response: .text("secret"))
                let pem = String(decoding: Fixtures.data("ca.pem"), as: UTF8.self)
                let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
                let tls = TLSSettings(trustedCertificates: [.der(Data(base64Encoded: base64)!)])
                let response = try await transport.send(request(server, tls: tls))
                #expect(response.statusCode == 200)
            }
        }

        @Test func theRightPinPasses() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/secure", response: .text("secret"))
                let tls = TLSSettings(trustedCertificates: [.pem(Fixtures.data("ca.pem"))],
                                      pinnedPublicKeyHashes: [Fixtures.localhostPin])
                let response = try await transport.send(request(server, tls: tls))
                #expect(response.statusCode == 200)
            }
        }

        @Test func aWrongPinFailsBeforeAnyRequestByteIsSent() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/secure", response: .text("secret"))
                let wrongPin = Data(repeating: 1, count: 32).base64EncodedString()
                let tls = TLSSettings(trustedCertificates: [.pem(Fixtures.data("ca.pem"))], pinnedPublicKeyHashes: [wrongPin])
                let code = await urlErrorCode { _ = try await transport.send(request(server, tls: tls)) }
                #expect(code == .serverCertificateUntrusted)
                #expect(server.journal.entries.isEmpty)
            }
        }

        @Test func theWrongHostNameFailsUnlessHostVerificationIsOff() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/secure", response: .text("secret"))
                // The leaf names localhost, 127.0.0.1 and ::1; route another name to it.
                let routed = CurlTransport(configuration: .init(connectTo: ["other.test:\(server.port):127.0.0.1:\(server.port)"]))
                var tls = TLSSettings(trustedCertificates: [.pem(Fixtures.data("ca.pem"))])
                let url = URL(string: "https://other.test:\(server.port)/secure")!
                let code = await urlErrorCode { _ = try await routed.send(HTTPRequest(url: url, tls: tls)) }
                #expect(code == .serverCertificateUntrusted)
                tls.verifiesHost = false
                let response = try await routed.send(HTTPRequest(url: url, tls: tls))
                #expect(response.statusCode == 200)
            }
        }

        @Test func verificationCanBeTurnedOff() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/secure", response: .text("secret"))
                let tls = TLSSettings(verifiesPeer: false, verifiesHost: false)
                let response = try await transport.send(request(server, tls: tls))
                #expect(response.statusCode == 200)
            }
        }

        @Test func connectToRoutesAProductionHostNameToTheServer() async throws {
            try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
                server.route(.get, "/v1/me", response: .text("me"))
                let routed = CurlTransport(configuration: .init(
                    connectTo: ["localhost:443:127.0.0.1:\(server.port)"],
                    trustedCertificates: [.pem(Fixtures.data("ca.pem"))]))
                let response = try await routed.send(HTTPRequest(url: URL(string: "https://localhost/v1/me")!))
                #expect(response.data == Data("me".utf8))
                #expect(server.journal.entries.first?.headers["Host"] == "localhost")
            }
        }
    }
}
