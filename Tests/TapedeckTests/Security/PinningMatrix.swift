import Foundation
import Tapedeck
import Testing

/// AFNetworking's AFSecurityPolicyTests matrix on generated certificates: each case is a policy, the certificate
/// the server presents (with its chain), the host asked for, and the expected outcome. The same table runs over
/// recorded chains (offline) and real TLS against the stub server. The root plays the system trust store.
struct PinningCase: Sendable, CustomTestStringConvertible {
    enum Served: Sendable { case leaf, expiredLeaf, selfSignedCommonName, selfSignedAltName, selfSignedNoDomain, otherLeaf }

    let name: String
    let served: Served
    let host: String
    let policy: @Sendable (TestPKI) throws -> SecurityPolicy
    /// `nil` when the server is trusted, else the rule expected to fail.
    let expected: ServerTrustRejection.Rule?

    var testDescription: String { name }

    func certificate(in pki: TestPKI) -> TestPKI.Issued {
        switch served {
        case .leaf: pki.leaf
        case .expiredLeaf: pki.expiredLeaf
        case .selfSignedCommonName: pki.selfSignedCommonName
        case .selfSignedAltName: pki.selfSignedAltName
        case .selfSignedNoDomain: pki.selfSignedNoDomain
        case .otherLeaf: pki.otherLeaf
        }
    }
}

private func makePolicy(
    _ mode: SecurityPolicy.PinningMode, _ pins: @escaping @Sendable (TestPKI) -> [TestPKI.Issued] = { _ in [] },
    allowInvalid: Bool = false, validatesDomainName: Bool = true
) -> @Sendable (TestPKI) throws -> SecurityPolicy {
    { pki in
        var policy = try SecurityPolicy(pinningMode: mode, pinnedCertificates: pins(pki).map(\.item))
        policy.allowInvalidCertificates = allowInvalid
        policy.validatesDomainName = validatesDomainName
        return policy
    }
}

extension PinningCase {
    static let host = TestPKI.host
    static let wrong = TestPKI.wrongHost

    static let all: [PinningCase] = defaultPolicy + pinning(.publicKey) + pinning(.certificate) + domainAndSelfSigned + expiry

    static let defaultPolicy: [PinningCase] = [
        .init(name: "default: a valid chain passes", served: .leaf, host: host, policy: { _ in .default }, expected: nil),
        .init(name: "default: the wrong host fails", served: .leaf, host: wrong, policy: { _ in .default },
              expected: .hostNameMismatch),
        .init(name: "default: a self-signed certificate fails", served: .selfSignedAltName, host: host,
              policy: { _ in .default }, expected: .untrustedChain),
        .init(name: "default without domain validation: the wrong host passes", served: .leaf, host: wrong,
              policy: makePolicy(.none, validatesDomainName: false), expected: nil),
        .init(name: "default: another CA's chain fails", served: .otherLeaf, host: "other.test",
              policy: { _ in .default }, expected: .untrustedChain),
    ]

    static func pinning(_ mode: SecurityPolicy.PinningMode) -> [PinningCase] {
        let notPinned: ServerTrustRejection.Rule = mode == .publicKey ? .publicKeyNotPinned : .certificateNotPinned
        let m = mode.rawValue
        return [
            .init(name: "\(m): pinning the leaf passes", served: .leaf, host: host, policy: makePolicy(mode) { [$0.leaf] },
                  expected: nil),
            .init(name: "\(m): pinning the intermediate passes", served: .leaf, host: host,
                  policy: makePolicy(mode) { [$0.intermediate] }, expected: nil),
            .init(name: "\(m): pinning the root passes", served: .leaf, host: host, policy: makePolicy(mode) { [$0.root] },
                  expected: nil),
            .init(name: "\(m): pinning the whole chain passes", served: .leaf, host: host,
                  policy: makePolicy(mode) { [$0.leaf, $0.intermediate, $0.root] }, expected: nil),
            .init(name: "\(m): the leaf among other pins passes", served: .leaf, host: host,
                  policy: makePolicy(mode) { [$0.selfSignedCommonName, $0.leaf] }, expected: nil),
            .init(name: "\(m): pinning the leaf with a valid domain passes", served: .leaf, host: host,
                  policy: makePolicy(mode) { [$0.leaf] }, expected: nil),
            .init(name: "\(m): no pins fails", served: .leaf, host: host, policy: makePolicy(mode),
                  expected: .noPinnedCertificates),
            .init(name: "\(m): another server's pin fails", served: .otherLeaf, host: "other.test",
                  policy: makePolicy(mode, { [$0.leaf] }, allowInvalid: true), expected: notPinned),
            .init(name: "\(m): several wrong pins fail", served: .leaf, host: host,
                  policy: makePolicy(mode) { [$0.otherLeaf, $0.selfSignedCommonName] }, expected: notPinned),
            .init(name: "\(m): the pinned leaf on the wrong host fails", served: .leaf, host: wrong,
                  policy: makePolicy(mode) { [$0.leaf] }, expected: .hostNameMismatch),
        ]
    }

    static let domainAndSelfSigned: [PinningCase] = [
        .init(name: "public key: a pinned self-signed common-name certificate passes when invalid ones are allowed",
              served: .selfSignedCommonName, host: host,
              policy: makePolicy(.publicKey, { [$0.selfSignedCommonName] }, allowInvalid: true), expected: nil),
        .init(name: "public key: a pinned self-signed alt-name certificate passes when invalid ones are allowed",
              served: .selfSignedAltName, host: host,
              policy: makePolicy(.publicKey, { [$0.selfSignedAltName] }, allowInvalid: true), expected: nil),
        .init(name: "certificate: a pinned self-signed alt-name certificate passes when invalid ones are allowed",
              served: .selfSignedAltName, host: host,
              policy: makePolicy(.certificate, { [$0.selfSignedAltName] }, allowInvalid: true), expected: nil),
        .init(name: "certificate: a pinned self-signed certificate with no domain fails domain validation",
              served: .selfSignedNoDomain, host: host,
              policy: makePolicy(.certificate, { [$0.selfSignedNoDomain] }, allowInvalid: true), expected: .hostNameMismatch),
        .init(name: "public key: a pinned self-signed certificate fails when invalid ones are refused",
              served: .selfSignedAltName, host: host, policy: makePolicy(.publicKey) { [$0.selfSignedAltName] },
              expected: .untrustedChain),
        .init(name: "certificate: a pinned self-signed certificate fails when invalid ones are refused",
              served: .selfSignedAltName, host: host, policy: makePolicy(.certificate) { [$0.selfSignedAltName] },
              expected: .untrustedChain),
        .init(name: "none, invalid allowed, no domain validation: a self-signed certificate passes",
              served: .selfSignedAltName, host: host,
              policy: makePolicy(.none, allowInvalid: true, validatesDomainName: false), expected: nil),
        .init(name: "public key, invalid allowed, no pins: a self-signed certificate fails",
              served: .selfSignedAltName, host: host, policy: makePolicy(.publicKey, allowInvalid: true),
              expected: .domainValidationRequiresPinning),
        .init(name: "none, invalid allowed, pins ignored: a self-signed certificate fails domain validation",
              served: .selfSignedAltName, host: host,
              policy: makePolicy(.none, { [$0.selfSignedAltName] }, allowInvalid: true),
              expected: .domainValidationRequiresPinning),
    ]

    static let expiry: [PinningCase] = [
        .init(name: "default: an expired certificate fails", served: .expiredLeaf, host: host,
              policy: { _ in .default }, expected: .untrustedChain),
        .init(name: "none, invalid allowed, no domain validation: an expired certificate passes", served: .expiredLeaf,
              host: host, policy: makePolicy(.none, allowInvalid: true, validatesDomainName: false), expected: nil),
        .init(name: "public key: a pinned expired certificate fails unless invalid ones are allowed",
              served: .expiredLeaf, host: host, policy: makePolicy(.publicKey) { [$0.expiredLeaf] },
              expected: .untrustedChain),
        .init(name: "public key: a pinned expired certificate passes when invalid ones are allowed",
              served: .expiredLeaf, host: host, policy: makePolicy(.publicKey, { [$0.expiredLeaf] }, allowInvalid: true),
              expected: nil),
        .init(name: "public key: an expired leaf under a pinned root passes when invalid ones are allowed",
              served: .expiredLeaf, host: host, policy: makePolicy(.publicKey, { [$0.root] }, allowInvalid: true),
              expected: nil),
        .init(name: "certificate: a pinned expired certificate fails even when invalid ones are allowed (as AFNetworking)",
              served: .expiredLeaf, host: host, policy: makePolicy(.certificate, { [$0.expiredLeaf] }, allowInvalid: true),
              expected: .certificateNotPinned),
    ]
}
