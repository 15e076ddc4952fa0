import Foundation

/// Why ``ServerTrustEvaluator`` refused a server, and the `URLError` a transport reports for it.
public struct ServerTrustRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule that failed.
    public enum Rule: String, Hashable, Sendable {
        /// Invalid certificates are allowed and the domain name is validated, but nothing is pinned: AFNetworking
        /// refuses this combination, since a self-signed certificate can only be checked against a pin.
        case domainValidationRequiresPinning
        /// The chain does not validate to a trusted anchor (self-signed, expired, unknown issuer).
        case untrustedChain
        /// The leaf does not name the host.
        case hostNameMismatch
        /// A pinning mode with no pinned certificates.
        case noPinnedCertificates
        /// Certificate pinning: the chain does not validate with the pinned certificates as its only anchors.
        case certificateNotPinned
        /// Public-key pinning: no certificate of the chain carries a pinned public key.
        case publicKeyNotPinned
    }

    /// The rule that failed.
    public var rule: Rule
    /// The host the request was addressed to.
    public var host: String?
    /// A sentence saying what failed.
    public var description: String

    /// Creates a rejection.
    public init(rule: Rule, host: String?, description: String) {
        self.rule = rule
        self.host = host
        self.description = description
    }

    /// The error a transport reports: `URLError.serverCertificateUntrusted` (-1202, as AFNetworking reports a
    /// failed trust evaluation) with the failing URL, this rejection's description, the rule under
    /// `URLError.trustRuleKey` and the server's certificates under `URLError.peerCertificatesKey`.
    ///
    /// ```swift
    /// throw rejection.urlError(failingURL: request.url, peerCertificates: chain)
    /// ```
    public func urlError(failingURL: URL?, peerCertificates: [Data]) -> URLError {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: "The certificate for this server is invalid or not pinned: \(description)",
            URLError.peerCertificatesKey: peerCertificates,
            URLError.trustRuleKey: rule.rawValue,
        ]
        if let failingURL {
            info[NSURLErrorFailingURLErrorKey] = failingURL
        }
        return URLError(.serverCertificateUntrusted, userInfo: info)
    }
}
