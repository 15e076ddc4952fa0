import Foundation
import TapedeckCore
@_spi(FixedExpiryValidationTime) import X509

extension SecurityPolicy {
    /// Evaluates the policy against a chain recorded earlier (a cassette's `HTTPResponse.peerCertificates`, DER,
    /// leaf first), with the same rules a live transport applies during the handshake, so pinning tests run
    /// offline. Chain validity is decided by swift-certificates' RFC 5280 verifier at `time` (pass the recording
    /// time to replay a cassette whose certificates have since expired).
    ///
    /// ```swift
    /// if let rejection = await policy.evaluate(recordedChain: response.peerCertificates, forHost: "api.example.com",
    ///                                          at: interaction.recordedAt) {
    ///     throw rejection.urlError(failingURL: request.url, peerCertificates: response.peerCertificates)
    /// }
    /// ```
    /// - Parameters:
    ///   - recordedChain: the server's certificates, DER, leaf first.
    ///   - host: the request's host, or `nil` to skip name checks.
    ///   - time: when the chain's validity dates are checked.
    ///   - trustedCertificates: anchors trusted besides the system's (e.g. a test CA).
    ///   - usesSystemTrustRoots: whether the system's trust store is also an anchor source. Default `true`.
    /// - Returns: `nil` when the server is trusted, else the failed rule.
    public func evaluate(
        recordedChain: [Data], forHost host: String?, at time: Date = Date(),
        trustedCertificates: [TLSSettings.Certificate] = [], usesSystemTrustRoots: Bool = true
    ) async -> ServerTrustRejection? {
        let facts: ServerTrustFacts
        do {
            facts = try await RecordedChainFacts.gather(
                chain: recordedChain, host: host, time: time, pinned: pinnedCertificates,
                anchors: trustedCertificates, usesSystemTrustRoots: usesSystemTrustRoots,
                needsPinnedChain: pinningMode == .certificate)
        } catch {
            return ServerTrustRejection(rule: .untrustedChain, host: host, description: "\(error)")
        }
        return ServerTrustEvaluator.evaluate(serverTrustPolicy, facts)
    }

    /// Like ``evaluate(recordedChain:forHost:at:trustedCertificates:usesSystemTrustRoots:)``, throwing the
    /// `URLError` a live transport reports (-1202, failing URL and the chain in `userInfo`).
    ///
    /// ```swift
    /// try await policy.checkRecordedChain(response.peerCertificates, for: request.url, at: recordedAt)
    /// ```
    public func checkRecordedChain(
        _ recordedChain: [Data], for url: URL, at time: Date = Date(),
        trustedCertificates: [TLSSettings.Certificate] = [], usesSystemTrustRoots: Bool = true
    ) async throws(URLError) {
        guard url.scheme?.lowercased() == "https" else { return }
        if let rejection = await evaluate(recordedChain: recordedChain, forHost: url.host, at: time,
                                          trustedCertificates: trustedCertificates,
                                          usesSystemTrustRoots: usesSystemTrustRoots) {
            throw rejection.urlError(failingURL: url, peerCertificates: recordedChain)
        }
    }
}

/// Gathers ``ServerTrustFacts`` for a recorded chain with swift-certificates.
enum RecordedChainFacts {
    struct EmptyChain: Error, CustomStringConvertible {
        var description: String { "no certificate was recorded" }
    }

    static func gather(
        chain: [Data], host: String?, time: Date, pinned: [Data], anchors: [TLSSettings.Certificate],
        usesSystemTrustRoots: Bool, needsPinnedChain: Bool
    ) async throws -> ServerTrustFacts {
        guard !chain.isEmpty else { throw EmptyChain() }
        let certificates = try chain.enumerated().map { index, der in
            try CertificateLoader.parse(der, source: "#\(index + 1) of the recorded chain")
        }
        let leaf = certificates[0]
        let intermediates = CertificateStore(certificates.dropFirst())

        var roots = usesSystemTrustRoots ? CertificateStore.systemTrustRoots : CertificateStore()
        for (index, anchor) in anchors.enumerated() {
            let ders = try CertificateLoader.derCertificates(in: anchor, source: "#\(index + 1) of the trusted certificates")
            roots.append(contentsOf: try ders.map { der throws(SecurityPolicyError) in try CertificateLoader.parse(der, source: "a trusted certificate") })
        }
        var verifier = Verifier(rootCertificates: roots) { RFC5280Policy(fixedExpiryValidationTime: time) }
        let trusted = await verifier.validate(leaf: leaf, intermediates: intermediates)

        var pinnedChain: [Data]?
        if needsPinnedChain {
            pinnedChain = try await chainToPinnedAnchors(chain: chain, certificates: certificates, pinned: pinned, time: time)
        }

        var keyCertificates = certificates
        var failure: String?
        switch trusted {
        case .validCertificate(let built):
            keyCertificates += built.filter { !certificates.contains($0) }
        case .couldNotValidate(let failures):
            failure = failures.first.map { "\($0.policyFailureReason)" } ?? "no chain to a trusted anchor"
            // As with AFNetworking, the keys of a chain built but refused (e.g. expired) count too.
            for certificate in failures.flatMap(\.chain) where !keyCertificates.contains(certificate) {
                keyCertificates.append(certificate)
            }
        }
        let publicKeys = try keyCertificates.map { certificate throws(SecurityPolicyError) in
            try CertificateLoader.subjectPublicKeyInfo(of: certificate, source: "a recorded certificate")
        }
        return ServerTrustFacts(
            host: host, presentedChain: chain, chainIsTrusted: failure == nil, chainFailureReason: failure,
            hostMatches: host.map { HostNameMatcher.matches(leaf, host: $0) } ?? false, pinnedAnchorChain: pinnedChain, publicKeys: publicKeys)
    }

    /// The chain built with `pinned` as the only anchors, or `nil`. A pinned leaf is an anchor by itself (needing
    /// only to be within its validity dates), as OpenSSL treats a trusted leaf with partial chains allowed;
    /// otherwise swift-certificates builds the chain to a pinned intermediate or root under RFC 5280 at `time`.
    static func chainToPinnedAnchors(
        chain: [Data], certificates: [Certificate], pinned: [Data], time: Date
    ) async throws -> [Data]? {
        let leaf = certificates[0]
        if pinned.contains(chain[0]) {
            return leaf.notValidBefore <= time && time <= leaf.notValidAfter ? [chain[0]] : nil
        }
        var original: [Certificate: Data] = [:]
        for (certificate, der) in zip(certificates, chain) { original[certificate] = der }
        let anchors = try pinned.map { der throws(SecurityPolicyError) in
            let certificate = try CertificateLoader.parse(der, source: "a pinned certificate")
            original[certificate] = der
            return certificate
        }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) { RFC5280Policy(fixedExpiryValidationTime: time) }
        guard case .validCertificate(let built) = await verifier.validate(
            leaf: leaf, intermediates: CertificateStore(certificates.dropFirst())) else { return nil }
        return built.compactMap { original[$0] }
    }
}
