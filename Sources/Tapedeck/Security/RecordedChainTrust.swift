import Foundation
import TapedeckCore

/// Evaluates a request's server-trust policy against a recorded certificate chain with ``SecurityPolicy``'s
/// offline rules; hand it to a replaying transport so pinning tests run with no network.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.trustEvaluator = RecordedChainTrust()
/// let replay = try CassetteTransport(cassette: url, mode: .replay, configuration: configuration)
/// ```
public struct RecordedChainTrust: RecordedTrustEvaluating {
    /// Whether the system's trust store is an anchor source besides the request's own trusted certificates.
    public var usesSystemTrustRoots: Bool

    /// Creates an evaluator.
    public init(usesSystemTrustRoots: Bool = true) {
        self.usesSystemTrustRoots = usesSystemTrustRoots
    }

    /// See `RecordedTrustEvaluating/check(_:recordedChain:url:recordedAt:trustedCertificates:)`.
    public func check(
        _ policy: ServerTrustPolicy, recordedChain: [Data], url: URL, recordedAt: Date,
        trustedCertificates: [TLSSettings.Certificate]
    ) async throws(URLError) {
        let securityPolicy: SecurityPolicy
        do {
            var built = try SecurityPolicy(pinningMode: policy.pinningMode,
                                           pinnedCertificates: policy.pinnedCertificates.map { .der($0.der) })
            built.allowInvalidCertificates = policy.allowInvalidCertificates
            built.validatesDomainName = policy.validatesDomainName
            securityPolicy = built
        } catch {
            throw URLError(.serverCertificateUntrusted, failingURL: url,
                           reason: "the request's trust policy cannot be evaluated: \(error)")
        }
        try await securityPolicy.checkRecordedChain(
            recordedChain, for: url, at: recordedAt, trustedCertificates: trustedCertificates,
            usesSystemTrustRoots: usesSystemTrustRoots)
    }
}
