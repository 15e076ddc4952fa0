import Foundation
import Tapedeck

/// How strictly the services authenticate their servers, as app network layers often name it.
///
/// | level | pinning | meaning |
/// |---|---|---|
/// | `normal` | none | the system's trust store and the host name, as any HTTPS client |
/// | `middle` | public key | also, some certificate of the chain has a pinned public key (survives re-issued certificates) |
/// | `high` | certificate | also, the chain leads to a pinned certificate, used as the only anchor |
public enum SecurityLevel: Sendable, Hashable, CaseIterable {
    /// No pinning.
    case normal
    /// Public-key pinning.
    case middle
    /// Certificate pinning.
    case high

    /// The AFNetworking pinning mode of the level.
    public var pinningMode: SecurityPolicy.PinningMode {
        switch self {
        case .normal: return .none
        case .middle: return .publicKey
        case .high: return .certificate
        }
    }
}

extension NetworkConfig {
    /// The security policy of ``securityLevel`` with ``pinnedCertificates``, checked against every service's base URL.
    ///
    /// - Throws: `SecurityPolicyError` when pinning has no certificates or a base URL is not `https`.
    public func securityPolicy() throws(SecurityPolicyError) -> SecurityPolicy {
        let policy = securityLevel == .normal
            ? SecurityPolicy.default
            : try SecurityPolicy(pinningMode: securityLevel.pinningMode, pinnedCertificates: pinnedCertificates)
        for base in [dataBaseURL, uploadBaseURL, downloadBaseURL] { try policy.validate(for: base) }
        return policy
    }
}
