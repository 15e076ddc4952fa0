import Foundation
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// The pinning matrix over real TLS: the stub server presents each case's chain, CurlTransport routes the test
/// host names to it and trusts the test root (standing in for the system store), and the policy is enforced in
/// the handshake. A rejected server's journal stays empty: no request byte reached it.
@Suite struct LiveTLSPinningTests {
    let pki = TestPKI.shared

    private func withServer<T>(
        presenting certificate: TestPKI.Issued, _ body: (StubServer, CurlTransport) async throws -> T
    ) async throws -> T {
        // Idle connections stay open for ten minutes, so the reuse test's connection is still there when the third
        // request comes, however long a starved task pool (two cores, a sanitizer) keeps it waiting.
        try await withStubServer(.init(connectionTimeout: 600, tls: pki.identity(certificate))) { server in
            server.route(.get, "/secure", response: .text("secret"))
            let routes = [TestPKI.host, TestPKI.wrongHost, "other.test"].map { "\($0)::127.0.0.1:\(server.port)" }
            let transport = CurlTransport(configuration: .init(connectTo: routes, trustedCertificates: [pki.root.item]))
            defer { transport.shutdown() }
            return try await body(server, transport)
        }
    }

    @Test(arguments: PinningCase.all)
    func theMatrixHoldsOverTLS(_ matrixCase: PinningCase) async throws {
        let policy = try matrixCase.policy(pki)
        let certificate = matrixCase.certificate(in: pki)
        try await withServer(presenting: certificate) { server, transport in
            let url = URL(string: "https://\(matrixCase.host)/secure")!
            var request = HTTPRequest(url: url)
            request.tls.serverTrustPolicy = policy.serverTrustPolicy
            do {
                let response = try await transport.send(request)
                #expect(matrixCase.expected == nil, "trusted, expected \(String(describing: matrixCase.expected))")
                #expect(response.data == Data("secret".utf8))
                #expect(server.journal.entries.count == 1)
            } catch let error as URLError {
                #expect(error.trustRule == matrixCase.expected, "\(error.localizedDescription)")
                #expect(error.code == .serverCertificateUntrusted)
                #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
                #expect(error.peerCertificates == pki.presented(certificate).map(\.der))
                #expect(server.journal.entries.isEmpty)
            }
        }
    }

    @Test func aSessionManagerAppliesItsPolicyToEveryRequest() async throws {
        try await withServer(presenting: pki.leaf) { server, transport in
            let base = URL(string: "https://\(TestPKI.host)/")!
            let manager = HTTPSessionManager(baseURL: base, transport: transport, responseSerializer: StringResponseSerializer())
            #expect(try await manager.get("secure").value as? String == "secret")

            try manager.setSecurityPolicy(SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.otherLeaf.item]))
            await #expect(throws: URLError.self) { try await manager.get("secure") }
            try manager.setSecurityPolicy(SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pki.intermediate.item]))
            #expect(try await manager.get("secure").value as? String == "secret")
            #expect(server.journal.entries.count == 2)
        }
    }

    @Test func connectionsVerifiedUnderOnePolicyAreNotReusedUnderAnother() async throws {
        try await withServer(presenting: pki.leaf) { server, transport in
            let url = URL(string: "https://\(TestPKI.host)/secure")!
            var lenient = HTTPRequest(url: url)
            lenient.tls.serverTrustPolicy = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.leaf.item]).serverTrustPolicy
            let started = ContinuousClock.now
            _ = try await transport.send(lenient)
            var strict = HTTPRequest(url: url)
            strict.tls.serverTrustPolicy = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.otherLeaf.item]).serverTrustPolicy
            do {
                _ = try await transport.send(strict)
                Issue.record("the strict policy rode on the lenient policy's connection")
            } catch let error as URLError {
                #expect(error.trustRule == .publicKeyNotPinned)
            }
            let again = try await transport.send(lenient)
            // The lenient connection is still there for lenient requests (within libcurl's 118 s; the server keeps
            // idle connections ten minutes).
            if ConnectionReuse.isPromised(since: started, serverIdleTimeout: .seconds(600)) { #expect(again.metrics.connectionReused) }
            #expect(server.journal.entries.count == 2)
        }
    }

    @Test func aRedirectToAnotherHostIsCheckedAgainstThatHost() async throws {
        try await withServer(presenting: pki.leaf) { server, transport in
            server.route(.get, "/hop", response: .init(status: 302, headers: ["Location": "https://\(TestPKI.wrongHost)/secure"]))
            var request = HTTPRequest(url: URL(string: "https://\(TestPKI.host)/hop")!)
            request.tls.serverTrustPolicy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pki.root.item]).serverTrustPolicy
            do {
                _ = try await SessionTransport(transport).send(request)
                Issue.record("the redirect to a host the certificate does not name was followed")
            } catch let error as URLError {
                #expect(error.trustRule == .hostNameMismatch)
            }
            #expect(server.journal.entries.map(\.path) == ["/hop"])
        }
    }
}
