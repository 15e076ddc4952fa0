import Foundation
import Testing
import TapedeckCore

/// AFNetworking's evaluation rules over hand-made facts: no certificates, no I/O.
@Suite struct ServerTrustEvaluatorTests {
    static let leaf = Data([1]), intermediate = Data([2]), root = Data([3]), stranger = Data([9])
    static func key(_ der: Data) -> Data { Data([0xAA]) + der }
    static func pin(_ der: Data) -> ServerTrustPolicy.PinnedCertificate { .init(der: der, subjectPublicKeyInfo: key(der)) }

    /// A trusted chain leaf → intermediate → root for `host`, with the given tweaks.
    static func facts(
        host: String? = "secure.test", trusted: Bool = true, hostMatches: Bool = true, pinnedChain: [Data]? = nil
    ) -> ServerTrustFacts {
        ServerTrustFacts(host: host, presentedChain: [leaf, intermediate], chainIsTrusted: trusted,
                         chainFailureReason: trusted ? nil : "self-signed", hostMatches: hostMatches,
                         pinnedAnchorChain: pinnedChain, publicKeys: [leaf, intermediate, root].map(key))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: ServerTrustPolicy
        let facts: ServerTrustFacts
        let expected: ServerTrustRejection.Rule?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "default trusts a valid chain", policy: .init(), facts: facts(), expected: nil),
        Case(name: "default refuses an untrusted chain", policy: .init(), facts: facts(trusted: false), expected: .untrustedChain),
        Case(name: "default refuses the wrong host", policy: .init(), facts: facts(hostMatches: false), expected: .hostNameMismatch),
        Case(name: "no host means no name check", policy: .init(), facts: facts(host: nil, hostMatches: false), expected: nil),
        Case(name: "no domain validation ignores the host", policy: .init(validatesDomainName: false),
             facts: facts(hostMatches: false), expected: nil),
        Case(name: "allow invalid + validate domain + no pinning is refused",
             policy: .init(allowInvalidCertificates: true), facts: facts(), expected: .domainValidationRequiresPinning),
        Case(name: "allow invalid + validate domain without a host passes", policy: .init(allowInvalidCertificates: true),
             facts: facts(host: nil, trusted: false), expected: nil),
        Case(name: "allow invalid without domain validation passes anything",
             policy: .init(allowInvalidCertificates: true, validatesDomainName: false),
             facts: facts(trusted: false, hostMatches: false), expected: nil),
        Case(name: "public key pinning of the root passes", policy: .init(pinningMode: .publicKey, pinnedCertificates: [pin(root)]),
             facts: facts(), expected: nil),
        Case(name: "public key pinning of a stranger fails",
             policy: .init(pinningMode: .publicKey, pinnedCertificates: [pin(stranger)]), facts: facts(), expected: .publicKeyNotPinned),
        Case(name: "public key pinning with no pins fails", policy: .init(pinningMode: .publicKey), facts: facts(),
             expected: .noPinnedCertificates),
        Case(name: "public key pinning checks validity unless invalid is allowed",
             policy: .init(pinningMode: .publicKey, pinnedCertificates: [pin(leaf)]), facts: facts(trusted: false),
             expected: .untrustedChain),
        Case(name: "public key pinning with invalid allowed skips validity and host",
             policy: .init(pinningMode: .publicKey, pinnedCertificates: [pin(leaf)], allowInvalidCertificates: true),
             facts: facts(trusted: false, hostMatches: false), expected: nil),
        Case(name: "certificate pinning needs a chain to a pinned anchor",
             policy: .init(pinningMode: .certificate, pinnedCertificates: [pin(root)]), facts: facts(pinnedChain: nil),
             expected: .certificateNotPinned),
        Case(name: "certificate pinning passes when the built chain holds a pin",
             policy: .init(pinningMode: .certificate, pinnedCertificates: [pin(intermediate)]),
             facts: facts(pinnedChain: [leaf, intermediate]), expected: nil),
        Case(name: "certificate pinning fails when the built chain holds no pin",
             policy: .init(pinningMode: .certificate, pinnedCertificates: [pin(stranger)]),
             facts: facts(pinnedChain: [leaf, intermediate]), expected: .certificateNotPinned),
        Case(name: "certificate pinning checks the host even when invalid is allowed",
             policy: .init(pinningMode: .certificate, pinnedCertificates: [pin(leaf)], allowInvalidCertificates: true),
             facts: facts(trusted: false, hostMatches: false, pinnedChain: [leaf]), expected: .hostNameMismatch),
        Case(name: "allow invalid + validate domain + pinning mode with no pins is refused",
             policy: .init(pinningMode: .certificate, allowInvalidCertificates: true), facts: facts(pinnedChain: [leaf]),
             expected: .domainValidationRequiresPinning),
    ]

    @Test(arguments: cases)
    func theRulesHold(_ testCase: Case) {
        #expect(ServerTrustEvaluator.evaluate(testCase.policy, testCase.facts)?.rule == testCase.expected)
    }

    @Test func aRejectionBecomesURLError1202WithTheChain() throws {
        let rejection = try #require(ServerTrustEvaluator.evaluate(.init(), Self.facts(trusted: false)))
        let url = URL(string: "https://secure.test/x")!
        let error = rejection.urlError(failingURL: url, peerCertificates: [Self.leaf])
        #expect(error.code == .serverCertificateUntrusted)
        #expect((error as NSError).code == -1202)
        #expect(error.failingURL == url)
        #expect(error.peerCertificates == [Self.leaf])
        #expect(error.trustRule == .untrustedChain)
        #expect(error.localizedDescription.contains("self-signed"))
    }

    @Test func theCanonicalEncodingIgnoresPinOrderButNotContent() {
        let a = ServerTrustPolicy(pinningMode: .certificate, pinnedCertificates: [Self.pin(Self.leaf), Self.pin(Self.root)])
        let b = ServerTrustPolicy(pinningMode: .certificate, pinnedCertificates: [Self.pin(Self.root), Self.pin(Self.leaf)])
        var c = a
        c.allowInvalidCertificates = true
        #expect(a.canonicalEncoding == b.canonicalEncoding)
        #expect(a.canonicalEncoding != c.canonicalEncoding)
        #expect(a.canonicalEncoding != ServerTrustPolicy(pinningMode: .publicKey, pinnedCertificates: a.pinnedCertificates).canonicalEncoding)
    }
}
