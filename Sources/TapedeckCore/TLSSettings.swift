import Foundation

/// How a request authenticates the server it talks to over HTTPS.
///
/// ```swift
/// var tls = TLSSettings()
/// tls.trustedCertificates = [.pem(try Data(contentsOf: caURL))]
/// tls.pinnedPublicKeyHashes = ["r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="]
/// ```
public struct TLSSettings: Hashable, Sendable {
    /// A certificate to trust as an anchor, in addition to the system's store.
    public enum Certificate: Hashable, Sendable {
        /// One or more PEM-encoded certificates (`-----BEGIN CERTIFICATE-----`).
        case pem(Data)
        /// One DER-encoded certificate.
        case der(Data)
    }

    /// Whether the server's certificate chain must lead to a trusted anchor. Default `true`.
    public var verifiesPeer: Bool
    /// Whether the certificate must name the host the request is addressed to. Default `true`.
    public var verifiesHost: Bool
    /// Extra anchors trusted for this request.
    public var trustedCertificates: [Certificate]
    /// Base64-encoded SHA-256 hashes of acceptable servers' SubjectPublicKeyInfo. When non-empty the server's
    /// key must match one of them, or the handshake fails before any request byte is sent.
    public var pinnedPublicKeyHashes: [String]
    /// An AFNetworking-style trust policy the transport evaluates during the handshake, or `nil` (the default) for
    /// the transport's own verification. When set, the policy decides peer and host trust (``verifiesPeer`` and
    /// ``verifiesHost`` are not consulted); ``trustedCertificates`` remain anchors and ``pinnedPublicKeyHashes``
    /// still apply. A rejected server fails the request with `URLError.serverCertificateUntrusted` before any
    /// request byte is sent.
    public var serverTrustPolicy: ServerTrustPolicy?

    /// Creates TLS settings; the defaults verify peer and host against the system's trust store.
    public init(
        verifiesPeer: Bool = true,
        verifiesHost: Bool = true,
        trustedCertificates: [Certificate] = [],
        pinnedPublicKeyHashes: [String] = [],
        serverTrustPolicy: ServerTrustPolicy? = nil
    ) {
        self.verifiesPeer = verifiesPeer
        self.verifiesHost = verifiesHost
        self.trustedCertificates = trustedCertificates
        self.pinnedPublicKeyHashes = pinnedPublicKeyHashes
        self.serverTrustPolicy = serverTrustPolicy
    }

    /// The default: verify everything against the system's store, pin nothing.
    public static let `default` = TLSSettings()
}

extension TLSSettings.Certificate {
    /// The certificate(s) as PEM text.
    public var pemData: Data {
        switch self {
        case .pem(let data):
            return data
        case .der(let der):
            return Data(PEMCertificates.encode(der).utf8)
        }
    }
}
