import Foundation

/// AFNetworking's `-[AFSecurityPolicy evaluateServerTrust:forDomain:]` as a pure function of a policy and the
/// facts a transport gathered: no I/O, no clock, no certificate parsing.
///
/// The rules, in order:
/// 1. Invalid certificates allowed, domain name validated, a host given, and no pinning (mode `.none` or no pinned
///    certificate): rejected, as AFNetworking refuses to validate a domain for a self-signed certificate unpinned.
/// 2. Mode `.none`: trusted when invalid certificates are allowed, or the chain is trusted and (if validated) the
///    host matches.
/// 3. Otherwise, unless invalid certificates are allowed, the chain must be trusted and the host must match.
/// 4. Mode `.certificate`: the chain must validate with the pinned certificates as its only anchors (dates
///    included, even when invalid certificates are allowed), the host must match when validated, and the built
///    chain must contain a pinned certificate.
/// 5. Mode `.publicKey`: some certificate of the chain must carry a pinned public key (the host is checked only by
///    rule 3).
///
/// ```swift
/// if let rejection = ServerTrustEvaluator.evaluate(policy, facts) {
///     throw rejection.urlError(failingURL: url, peerCertificates: facts.presentedChain)
/// }
/// ```
public enum ServerTrustEvaluator {
    /// `nil` when the server is trusted, else why it is not.
    public static func evaluate(_ policy: ServerTrustPolicy, _ facts: ServerTrustFacts) -> ServerTrustRejection? {
        let host = facts.host
        func reject(_ rule: ServerTrustRejection.Rule, _ text: String) -> ServerTrustRejection {
            ServerTrustRejection(rule: rule, host: host, description: text)
        }
        let pinned = policy.pinnedCertificates
        if host != nil, policy.allowInvalidCertificates, policy.validatesDomainName,
           policy.pinningMode == .none || pinned.isEmpty {
            return reject(.domainValidationRequiresPinning,
                          "a policy that allows invalid certificates and validates the domain name must pin certificates")
        }
        let checksHost = policy.validatesDomainName && host != nil
        let hostFailure = checksHost && !facts.hostMatches
            ? reject(.hostNameMismatch, "the certificate does not name the host \"\(host ?? "")\"") : nil
        let chainFailure = facts.chainIsTrusted
            ? nil
            : reject(.untrustedChain, "the certificate chain is not trusted (\(facts.chainFailureReason ?? "no trusted anchor"))")

        if policy.pinningMode == .none {
            return policy.allowInvalidCertificates ? nil : chainFailure ?? hostFailure
        }
        if !policy.allowInvalidCertificates, let failure = chainFailure ?? hostFailure {
            return failure
        }
        if pinned.isEmpty {
            return reject(.noPinnedCertificates, "the \(policy.pinningMode.rawValue) pinning policy pins no certificate")
        }
        switch policy.pinningMode {
        case .none:
            return nil
        case .certificate:
            guard let built = facts.pinnedAnchorChain else {
                return reject(.certificateNotPinned, "the certificate chain does not validate to a pinned certificate")
            }
            if let hostFailure { return hostFailure }
            let pinnedDER = Set(pinned.map(\.der))
            return built.contains(where: pinnedDER.contains)
                ? nil : reject(.certificateNotPinned, "no certificate of the chain is pinned")
        case .publicKey:
            let pinnedKeys = Set(pinned.map(\.subjectPublicKeyInfo))
            return facts.publicKeys.contains(where: pinnedKeys.contains)
                ? nil : reject(.publicKeyNotPinned, "no certificate of the chain carries a pinned public key")
        }
    }
}
