import Foundation
import TapedeckCore

/// How a client decides whether to trust an HTTPS server: AFNetworking's `AFSecurityPolicy`.
///
/// The policy travels with every request (as `TapedeckCore/TLSSettings/serverTrustPolicy`) and the transport
/// enforces it during the TLS handshake, so a rejected server never receives a byte of the request; the request
/// fails with `URLError.serverCertificateUntrusted` (-1202) carrying the failing URL and the server's certificates
/// (`TapedeckCore/URLError/peerCertificates`). A cassette replayer evaluates the same policy against a recorded
/// chain with ``evaluate(recordedChain:forHost:at:trustedCertificates:usesSystemTrustRoots:)``.
///
/// ```swift
/// let pins = try SecurityPolicy.certificates(inDirectory: URL(fileURLWithPath: "Certificates"))
/// let policy = try SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: pins)
/// let api = try HTTPSessionManager(baseURL: URL(string: "https://api.example.com")!, securityPolicy: policy)
/// ```
public struct SecurityPolicy: Hashable, Sendable {
    /// How the server's chain is compared with the pinned certificates.
    public typealias PinningMode = ServerTrustPolicy.PinningMode

    /// The pinning mode.
    public var pinningMode: PinningMode
    /// Accept chains that do not validate (self-signed, expired, unknown issuer). Default `false`.
    public var allowInvalidCertificates: Bool = false
    /// Require the certificate to name the request's host. Default `true`.
    public var validatesDomainName: Bool = true
    private var pins: [ServerTrustPolicy.PinnedCertificate]

    /// The pinned certificates, DER, in the order given (duplicates removed).
    public var pinnedCertificates: [Data] { pins.map(\.der) }

    /// AFNetworking's default policy: no pinning, invalid certificates refused, domain names validated. Requests
    /// under it are verified by the transport's own checks, exactly as with no policy.
    public static let `default` = SecurityPolicy(mode: .none, pins: [])

    private init(mode: PinningMode, pins: [ServerTrustPolicy.PinnedCertificate]) {
        pinningMode = mode
        self.pins = pins
    }

    /// Creates a policy pinning `pinnedCertificates` (DER or PEM; a PEM item may hold several certificates).
    ///
    /// ```swift
    /// let policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [.der(rootDER)])
    /// ```
    /// - Throws: ``SecurityPolicyError/unreadableCertificate(source:reason:)`` naming the item that is not a
    ///   certificate. Whether the policy suits a base URL is checked by ``validate(for:)``.
    public init(pinningMode: PinningMode, pinnedCertificates: [TLSSettings.Certificate] = []) throws(SecurityPolicyError) {
        var pins: [ServerTrustPolicy.PinnedCertificate] = []
        for (index, item) in pinnedCertificates.enumerated() {
            pins += try CertificateLoader.pins(in: item, source: "#\(index + 1) of the pinned certificates")
        }
        self.init(mode: pinningMode, pins: Self.deduplicated(pins))
    }

    /// Replaces the pinned certificates, as AFNetworking's `pinnedCertificates` setter does.
    public mutating func setPinnedCertificates(_ certificates: [TLSSettings.Certificate]) throws(SecurityPolicyError) {
        self = try SecurityPolicy(pinningMode: pinningMode, pinnedCertificates: certificates)
            .with(allowInvalid: allowInvalidCertificates, validatesDomainName: validatesDomainName)
    }

    private func with(allowInvalid: Bool, validatesDomainName: Bool) -> SecurityPolicy {
        var copy = self
        copy.allowInvalidCertificates = allowInvalid
        copy.validatesDomainName = validatesDomainName
        return copy
    }

    private static func deduplicated(_ pins: [ServerTrustPolicy.PinnedCertificate]) -> [ServerTrustPolicy.PinnedCertificate] {
        var seen = Set<Data>()
        return pins.filter { seen.insert($0.der).inserted }
    }

    /// The value a transport evaluates.
    public var serverTrustPolicy: ServerTrustPolicy {
        ServerTrustPolicy(pinningMode: pinningMode, pinnedCertificates: pins,
                          allowInvalidCertificates: allowInvalidCertificates, validatesDomainName: validatesDomainName)
    }

    /// Whether requests under this policy need the transport to evaluate it (every policy but the default does).
    var needsEvaluation: Bool { self != .default }

    /// Checks that the policy can protect requests against `baseURL` (`nil`: absolute URLs only).
    ///
    /// ```swift
    /// try policy.validate(for: URL(string: "https://api.example.com")!)
    /// ```
    /// - Throws: ``SecurityPolicyError/pinningWithoutCertificates(_:)`` for a pinning mode with no certificate,
    ///   ``SecurityPolicyError/pinningRequiresHTTPS(baseURL:)`` for pinning over a non-https base URL, and
    ///   ``SecurityPolicyError/domainValidationRequiresPinning`` when invalid certificates are allowed with
    ///   domain-name validation but no pinning.
    public func validate(for baseURL: URL?) throws(SecurityPolicyError) {
        if pinningMode != .none, pins.isEmpty {
            throw .pinningWithoutCertificates(pinningMode)
        }
        if pinningMode != .none, let baseURL, baseURL.scheme?.lowercased() != "https" {
            throw .pinningRequiresHTTPS(baseURL: baseURL)
        }
        if allowInvalidCertificates, validatesDomainName, pinningMode == .none {
            throw .domainValidationRequiresPinning
        }
    }

    /// Applies the policy to `request`'s TLS settings (the default policy leaves them as they are), so the transport
    /// enforces it during the handshake.
    ///
    /// ```swift
    /// var request = HTTPRequest(url: URL(string: "https://api.example.com/me")!)
    /// policy.apply(to: &request)
    /// ```
    public func apply(to request: inout HTTPRequest) {
        if needsEvaluation { request.tls.serverTrustPolicy = serverTrustPolicy }
    }
}
