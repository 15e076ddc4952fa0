import Foundation
import Testing
import Tapedeck

/// The pinning matrix offline: each case's chain as a cassette would record it, evaluated with
/// `SecurityPolicy.evaluate(recordedChain:forHost:at:)`.
@Suite struct RecordedChainPinningTests {
    let pki = TestPKI.shared

    @Test(arguments: PinningCase.all)
    func theMatrixHoldsOffline(_ matrixCase: PinningCase) async throws {
        let policy = try matrixCase.policy(pki)
        let chain = pki.presented(matrixCase.certificate(in: pki)).map(\.der)
        let rejection = await policy.evaluate(recordedChain: chain, forHost: matrixCase.host,
                                              trustedCertificates: [pki.root.item], usesSystemTrustRoots: false)
        #expect(rejection?.rule == matrixCase.expected, "\(rejection?.description ?? "trusted")")
    }

    @Test func anExpiredChainPassesAtItsRecordingTime() async throws {
        let policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [pki.root.item])
        let chain = pki.presented(pki.expiredLeaf).map(\.der)
        let recordedAt = pki.expiredLeaf.certificate.notValidAfter - 3600
        #expect(await policy.evaluate(recordedChain: chain, forHost: TestPKI.host, at: recordedAt,
                                      trustedCertificates: [pki.root.item], usesSystemTrustRoots: false) == nil)
        #expect(await policy.evaluate(recordedChain: chain, forHost: TestPKI.host,
                                      trustedCertificates: [pki.root.item], usesSystemTrustRoots: false)?.rule == .untrustedChain)
    }

    @Test func aRejectedRecordedChainThrowsTheTransportsError() async throws {
        let policy = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.otherLeaf.item])
        let chain = pki.presented(pki.leaf).map(\.der)
        let url = URL(string: "https://\(TestPKI.host)/v1/me")!
        do {
            try await policy.checkRecordedChain(chain, for: url, trustedCertificates: [pki.root.item],
                                                usesSystemTrustRoots: false)
            Issue.record("the unpinned chain was accepted")
        } catch {
            #expect(error.code == .serverCertificateUntrusted)
            #expect(error.errorCode == -1202)
            #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == url)
            #expect(error.peerCertificates == chain)
            #expect(error.trustRule == .publicKeyNotPinned)
        }
    }

    @Test func anEmptyOrGarbledRecordingIsNotTrusted() async throws {
        let policy = SecurityPolicy.default
        #expect(await policy.evaluate(recordedChain: [], forHost: TestPKI.host)?.rule == .untrustedChain)
        #expect(await policy.evaluate(recordedChain: [Data("junk".utf8)], forHost: TestPKI.host)?.rule == .untrustedChain)
    }

    @Test func plainHTTPIsNotEvaluated() async throws {
        let policy = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [pki.leaf.item])
        try await policy.checkRecordedChain([], for: URL(string: "http://\(TestPKI.host)/")!)
    }
}
