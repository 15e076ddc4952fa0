import Foundation

/// Decides offline whether a certificate chain recorded earlier satisfies a request's ``ServerTrustPolicy``, so a
/// replaying transport (a cassette) enforces pinning the way a live transport does during the handshake.
///
/// `Tapedeck.RecordedChainTrust` is the implementation (it needs swift-certificates to read the chain); a cassette
/// transport is handed one in its configuration.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.trustEvaluator = RecordedChainTrust()
/// ```
public protocol RecordedTrustEvaluating: Sendable {
    /// Throws the `URLError` a live transport would report (-1202 with the failing URL and the chain) when the
    /// recorded chain does not satisfy `policy` for `url`, judged at `recordedAt`.
    func check(
        _ policy: ServerTrustPolicy, recordedChain: [Data], url: URL, recordedAt: Date,
        trustedCertificates: [TLSSettings.Certificate]
    ) async throws(URLError)
}
