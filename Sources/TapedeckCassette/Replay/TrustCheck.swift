import Foundation

/// The offline server-trust check of a replayed HTTPS request that carries a `ServerTrustPolicy`: the recorded
/// chain is judged as the live transport would have judged it during the handshake, at the recording time.
struct TrustCheck {
    let policy: ServerTrustPolicy
    let request: HTTPRequest
    let interaction: Interaction
    let evaluator: (any RecordedTrustEvaluating)?

    /// `nil` when there is nothing to check: plain HTTP, or no policy on the request.
    init?(request: HTTPRequest, interaction: Interaction, evaluator: (any RecordedTrustEvaluating)?) {
        guard let policy = request.tls.serverTrustPolicy, request.url.scheme?.lowercased() == "https" else { return nil }
        self.policy = policy
        self.request = request
        self.interaction = interaction
        self.evaluator = evaluator
    }

    /// Throws the live transport's `URLError` when the recorded chain does not satisfy the policy.
    func run() async throws {
        guard let evaluator else {
            throw URLError(.serverCertificateUntrusted, failingURL: request.url, reason:
                "the request carries a server-trust policy, and the cassette has no evaluator to check it against the "
                + "recorded certificates: set CassetteConfiguration.trustEvaluator (e.g. RecordedChainTrust())")
        }
        try await evaluator.check(policy, recordedChain: interaction.peerCertificates, url: request.url,
                                  recordedAt: interaction.recordedAt, trustedCertificates: request.tls.trustedCertificates)
    }
}
