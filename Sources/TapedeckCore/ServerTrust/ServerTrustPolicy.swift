import Foundation

/// What a transport enforces when it evaluates a server's certificate chain: AFNetworking's `AFSecurityPolicy`
/// reduced to plain values (certificates and keys as DER bytes), so every transport can carry it inside
/// ``TLSSettings`` and evaluate it with ``ServerTrustEvaluator``.
///
/// Build one with `SecurityPolicy` from the `Tapedeck` module, which parses certificate files and computes the
/// public keys; this type only holds the result.
///
/// ```swift
/// var tls = TLSSettings()
/// tls.serverTrustPolicy = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [.der(leaf)]).serverTrustPolicy
/// ```
public struct ServerTrustPolicy: Hashable, Sendable {
    /// How the server's chain is compared with the pinned certificates.
    public enum PinningMode: String, Hashable, Sendable, CaseIterable {
        /// No pinning: the chain must validate against the trusted anchors (unless invalid certificates are allowed).
        case none
        /// Some certificate of the server's chain must carry the public key of a pinned certificate.
        case publicKey
        /// The chain must validate with the pinned certificates as its only anchors.
        case certificate
    }

    /// One pinned certificate: its DER encoding and its DER `SubjectPublicKeyInfo`.
    public struct PinnedCertificate: Hashable, Sendable {
        /// The certificate, DER.
        public var der: Data
        /// Its `SubjectPublicKeyInfo`, DER (algorithm and key), as `i2d_X509_PUBKEY` writes it.
        public var subjectPublicKeyInfo: Data

        /// Creates a pinned certificate from its DER encoding and its public key info.
        public init(der: Data, subjectPublicKeyInfo: Data) {
            self.der = der
            self.subjectPublicKeyInfo = subjectPublicKeyInfo
        }
    }

    /// The pinning mode. Default `.none`.
    public var pinningMode: PinningMode
    /// The pinned certificates (ignored by `.none`).
    public var pinnedCertificates: [PinnedCertificate]
    /// Accept a chain that does not validate (self-signed, expired, unknown anchor). Default `false`.
    public var allowInvalidCertificates: Bool
    /// Require the leaf to name the host the request is addressed to. Default `true`.
    public var validatesDomainName: Bool

    /// Creates a policy; the defaults are AFNetworking's default policy.
    public init(
        pinningMode: PinningMode = .none,
        pinnedCertificates: [PinnedCertificate] = [],
        allowInvalidCertificates: Bool = false,
        validatesDomainName: Bool = true
    ) {
        self.pinningMode = pinningMode
        self.pinnedCertificates = pinnedCertificates
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
    }

    /// Bytes that identify this policy (mode, flags and pinned certificates), for transports that must keep
    /// connections verified under one policy apart from those verified under another.
    public var canonicalEncoding: Data {
        var bytes = Data("\(pinningMode.rawValue);\(allowInvalidCertificates);\(validatesDomainName);".utf8)
        for der in pinnedCertificates.map(\.der).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            bytes.append(contentsOf: withUnsafeBytes(of: UInt32(der.count).bigEndian) { Array($0) })
            bytes.append(der)
        }
        return bytes
    }
}
