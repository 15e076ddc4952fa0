import Foundation
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckTestSupport

/// Pinning enforced while replaying a cassette: the recorded chain is judged as the live handshake would have been.
@Suite struct CassettePinningTests {
    let pki = TestPKI.shared
    let url = URL(string: "https://\(TestPKI.host)/v1/me")!

    /// A cassette in `directory` with one HTTPS interaction recorded from a server presenting `leaf`'s chain.
    private func cassette(presenting leaf: TestPKI.Issued, in directory: TemporaryDirectory) throws -> URL {
        let file = directory.cassette("secure.json")
        let interaction = Interaction(
            request: Interaction.Request(method: "GET", url: url.absoluteString),
            outcome: .response(Interaction.Response(statusCode: 200, reasonPhrase: "OK",
                                                    headers: ["Content-Type": "application/json"],
                                                    body: CassetteBody(Data(#"{"id":7}"#.utf8)))),
            peerCertificates: pki.presented(leaf).map(\.der), recordedAt: Date())
        try CassetteFile.save(Cassette(interactions: [interaction]), to: file)
        return file
    }

    private func replay(_ file: URL, evaluator: (any RecordedTrustEvaluating)?) throws -> CassetteTransport {
        try openCassette(file, mode: .replay, configuration: CassetteConfiguration(trustEvaluator: evaluator))
    }

    private func request(pinning policy: SecurityPolicy) -> HTTPRequest {
        var request = HTTPRequest(url: url, tls: TLSSettings(trustedCertificates: [pki.root.item]))
        policy.apply(to: &request)
        return request
    }

    @Test func aPinnedRecordedChainReplays() async throws {
        try await withTemporaryDirectory { directory in
            let file = try cassette(presenting: pki.leaf, in: directory)
            let transport = try replay(file, evaluator: RecordedChainTrust(usesSystemTrustRoots: false))
            let policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pki.intermediate.item])
            let response = try await transport.send(request(pinning: policy))
            #expect(response.statusCode == 200)
        }
    }

    @Test func anUnpinnedRecordedChainIsRejectedAsTheLiveTransportWould() async throws {
        try await withTemporaryDirectory { directory in
            let file = try cassette(presenting: pki.leaf, in: directory)
            let transport = try replay(file, evaluator: RecordedChainTrust(usesSystemTrustRoots: false))
            let policy = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.otherLeaf.item])
            do {
                _ = try await transport.send(request(pinning: policy))
                Issue.record("a chain without the pinned key must be rejected")
            } catch let error as URLError {
                #expect(error.code == .serverCertificateUntrusted)
                #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
                #expect(error.peerCertificates == pki.presented(pki.leaf).map(\.der))
            }
        }
    }

    @Test func aPolicyWithoutAnEvaluatorFailsInsteadOfPassingUnchecked() async throws {
        try await withTemporaryDirectory { directory in
            let file = try cassette(presenting: pki.leaf, in: directory)
            let transport = try replay(file, evaluator: nil)
            let policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pki.root.item])
            do {
                _ = try await transport.send(request(pinning: policy))
                Issue.record("an unchecked policy must not pass")
            } catch let error as URLError {
                #expect(error.code == .serverCertificateUntrusted)
                #expect(error.localizedDescription.contains("trustEvaluator"))
            }
        }
    }

    @Test func anHTTPSessionManagerPinsOverACassette() async throws {
        try await withTemporaryDirectory { directory in
            let file = try cassette(presenting: pki.leaf, in: directory)
            // The test root is no system anchor, so as in AFNetworking the chain is trusted through the pinned
            // certificates alone: invalid certificates allowed, certificate pinning, host still validated.
            func manager(pinning pinned: TestPKI.Issued) throws -> HTTPSessionManager {
                var policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pinned.item])
                policy.allowInvalidCertificates = true
                return try HTTPSessionManager(
                    baseURL: URL(string: "https://\(TestPKI.host)")!,
                    transport: try replay(file, evaluator: RecordedChainTrust(usesSystemTrustRoots: false)),
                    securityPolicy: policy)
            }
            let pinned = try await manager(pinning: pki.root).get("v1/me")
            #expect(pinned.response?.statusCode == 200)
            do {
                _ = try await manager(pinning: pki.otherRoot).get("v1/me")
                Issue.record("a chain that does not lead to the pinned root must be rejected")
            } catch let error as URLError {
                #expect(error.code == .serverCertificateUntrusted)
            }
        }
    }
}
