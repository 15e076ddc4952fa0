import CCurl
import Foundation
import TapedeckCore

/// Enforces a ``TapedeckCore/ServerTrustPolicy`` inside OpenSSL's certificate verification for one transfer, so a
/// rejected server fails the handshake before any request byte is sent.
///
/// libcurl hands each new connection's `SSL_CTX` to ``installCallback``, which replaces OpenSSL's chain
/// verification with ``verify(_:)``: it gathers ``TapedeckCore/ServerTrustFacts`` with OpenSSL (the default
/// verification against libcurl's anchors, a verification against the pinned certificates alone, the host-name
/// check and every certificate's public key), lets ``TapedeckCore/ServerTrustEvaluator`` decide, and records a
/// rejection for the transfer's error. Used on the event-loop thread only; the transfer owns it and outlives its
/// handshake, and renegotiation is refused, so the pointer OpenSSL holds is never used after the transfer ends.
final class ServerTrustVerifier {
    let policy: ServerTrustPolicy
    private let easy: CurlEasy
    private let requestHost: String?
    /// Why the server was refused, once it was.
    private(set) var rejection: ServerTrustRejection?
    /// The chain the server presented (DER, leaf first), once it did.
    private(set) var presentedChain: [Data] = []
    private let pinnedCertificates: [OpaquePointer]

    init(policy: ServerTrustPolicy, easy: CurlEasy, requestHost: String?) {
        self.easy = easy
        self.requestHost = requestHost
        // The pins' public keys are re-encoded by OpenSSL, so they compare byte for byte with the chain's.
        var pinned: [OpaquePointer] = []
        var normalized = policy
        normalized.pinnedCertificates = policy.pinnedCertificates.map { pin in
            guard let certificate = pin.der.withUnsafeBytes({ bytes -> OpaquePointer? in
                tdk_x509_from_der(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            }) else { return pin }
            pinned.append(certificate)
            return .init(der: pin.der, subjectPublicKeyInfo: Self.spki(certificate) ?? pin.subjectPublicKeyInfo)
        }
        self.policy = normalized
        self.pinnedCertificates = pinned
    }

    deinit {
        for certificate in pinnedCertificates { X509_free(certificate) }
    }

    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The `CURLOPT_CAPATH` value that keeps connections (and TLS sessions) verified under this policy apart from
    /// others: libcurl reuses a connection only when the TLS settings match, and the policy callback is not part of
    /// them, but the CA path is. The default path comes first, so anchors are unchanged; the second entry names a
    /// directory that does not exist (OpenSSL's hashed-directory lookup skips it), keyed by the policy's SHA-256.
    static func connectionKeyPath(for policy: ServerTrustPolicy, defaultPath: String?) -> String {
        let encoding = policy.canonicalEncoding
        var digest = [UInt8](repeating: 0, count: 32)
        _ = encoding.withUnsafeBytes { tdk_sha256($0.baseAddress, $0.count, &digest) }
        let key = "/nonexistent/tapedeck-trust-policy-" + digest.lowercaseHex
        return defaultPath.map { "\($0):\(key)" } ?? key
    }

    /// Decides the handshake: `true` accepts the server (and clears OpenSSL's verification error, so libcurl's
    /// later check passes), `false` aborts it.
    func verify(_ context: OpaquePointer) -> Bool {
        let host = currentHost()
        let untrusted = X509_STORE_CTX_get0_untrusted(context)
        let leaf = X509_STORE_CTX_get0_cert(context)
        var presented = (0..<tdk_x509_stack_count(untrusted)).compactMap { tdk_x509_stack_at(untrusted, $0) }
        if presented.isEmpty, let leaf { presented = [leaf] }
        presentedChain = presented.compactMap(Self.der)

        let chainIsTrusted = X509_verify_cert(context) == 1
        let failure = chainIsTrusted ? nil : String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))))
        // As with AFNetworking, the keys of the chain as built (with its anchor, even when it failed) count too.
        var keyCertificates = presented
        let built = X509_STORE_CTX_get0_chain(context)
        for index in 0..<tdk_x509_stack_count(built) {
            if let certificate = tdk_x509_stack_at(built, index), !keyCertificates.contains(certificate) {
                keyCertificates.append(certificate)
            }
        }
        let facts = ServerTrustFacts(
            host: host, presentedChain: presentedChain, chainIsTrusted: chainIsTrusted, chainFailureReason: failure,
            hostMatches: leaf.map { certificate in host.map { tdk_x509_names_host(certificate, $0) == 1 } ?? false } ?? false,
            pinnedAnchorChain: policy.pinningMode == .certificate ? leaf.flatMap { pinnedChain(leaf: $0, untrusted: untrusted) } : nil,
            publicKeys: keyCertificates.compactMap(Self.spki))
        rejection = ServerTrustEvaluator.evaluate(policy, facts)
        X509_STORE_CTX_set_error(context, rejection == nil ? tdk_verify_ok() : tdk_verify_rejected())
        return rejection == nil
    }

    /// The host of the URL being connected to (after a redirect, the new one), without IPv6 brackets.
    private func currentHost() -> String? {
        let host = easy.string(CURLINFO_EFFECTIVE_URL).flatMap { URL(string: $0)?.host } ?? requestHost
        return host.map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }
    }

    /// The chain built with the pinned certificates as the only anchors, or `nil` when none validates.
    private func pinnedChain(leaf: OpaquePointer, untrusted: OpaquePointer?) -> [Data]? {
        guard !pinnedCertificates.isEmpty else { return nil }
        var anchors: [OpaquePointer?] = pinnedCertificates
        guard let verified = tdk_verify_with_anchors(leaf, untrusted, &anchors, Int32(anchors.count)) else { return nil }
        defer { tdk_free_anchored_verification(verified) }
        let chain = X509_STORE_CTX_get0_chain(verified)
        return (0..<tdk_x509_stack_count(chain)).compactMap { tdk_x509_stack_at(chain, $0) }.compactMap(Self.der)
    }

    private static func der(_ certificate: OpaquePointer) -> Data? {
        copy(length: tdk_x509_der(certificate, nil)) { tdk_x509_der(certificate, $0) }
    }

    private static func spki(_ certificate: OpaquePointer) -> Data? {
        copy(length: tdk_x509_spki(certificate, nil)) { tdk_x509_spki(certificate, $0) }
    }

    private static func copy(length: Int32, _ write: (UnsafeMutablePointer<UInt8>) -> Int32) -> Data? {
        guard length > 0 else { return nil }
        var data = Data(count: Int(length))
        let written = data.withUnsafeMutableBytes { write($0.bindMemory(to: UInt8.self).baseAddress!) }
        return written == length ? data : nil
    }
}

/// libcurl's `CURLOPT_SSL_CTX_FUNCTION`: installs the verifier on a new connection's `SSL_CTX`.
let serverTrustSSLContextCallback: tdk_ssl_ctx_callback = { _, sslContext, userdata in
    if let sslContext { tdk_ssl_ctx_set_verifier(sslContext, serverTrustVerifyCallback, userdata) }
    return CURLE_OK
}

/// OpenSSL's certificate verification callback: 1 accepts the chain, 0 aborts the handshake.
private let serverTrustVerifyCallback: tdk_cert_verify_callback = { context, userdata in
    guard let context, let userdata else { return 0 }
    return Unmanaged<ServerTrustVerifier>.fromOpaque(userdata).takeUnretainedValue().verify(context) ? 1 : 0
}
