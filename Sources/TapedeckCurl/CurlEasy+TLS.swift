import CCurl
import Foundation
import TapedeckCore

extension CurlEasy {
    /// Applies a request's TLS settings to the handle when `url` is `https`: peer and host verification or a server
    /// trust policy (whose verifier is returned: the caller keeps it alive for the connection's life and asks it why a
    /// server was refused), the anchors, and public-key pins. Every libcurl connection Tapedeck opens uses this.
    func configureTLS(
        for url: URL, tls: TLSSettings, additionalAnchors: [TLSSettings.Certificate]
    ) throws -> ServerTrustVerifier? {
        guard url.scheme?.lowercased() == "https" else { return nil }
        var verifier: ServerTrustVerifier?
        try set(CURLOPT_CERTINFO, true)
        if let policy = tls.serverTrustPolicy {
            // The policy decides peer and host trust inside OpenSSL's verification (which needs VERIFYPEER on).
            let policyVerifier = ServerTrustVerifier(policy: policy, easy: self, requestHost: url.host)
            verifier = policyVerifier
            try set(CURLOPT_SSL_VERIFYPEER, true)
            try set(CURLOPT_SSL_VERIFYHOST, 0)
            try set(CURLOPT_SSL_SESSIONID_CACHE, false)
            try set(CURLOPT_CAPATH, ServerTrustVerifier.connectionKeyPath(for: policy, defaultPath: string(CURLINFO_CAPATH)))
            let code = tdk_easy_set_ssl_ctx_callback(handle, serverTrustSSLContextCallback, policyVerifier.opaque)
            guard code == CURLE_OK else {
                throw URLError(.unknown, failingURL: url,
                               reason: "libcurl refused a callback: \(String(cString: curl_easy_strerror(code)))")
            }
        } else {
            try set(CURLOPT_SSL_VERIFYPEER, tls.verifiesPeer)
            try set(CURLOPT_SSL_VERIFYHOST, tls.verifiesHost ? 2 : 0)
        }
        let anchors = additionalAnchors + tls.trustedCertificates
        if !anchors.isEmpty {
            // A newline after each, so a PEM without a final one does not run into the next.
            let bundle = anchors.reduce(into: Data()) { bundle, anchor in
                bundle.append(anchor.pemData)
                bundle.append(UInt8(ascii: "\n"))
            }
            try set(CURLOPT_CAINFO_BLOB, blob: bundle)
        }
        if !tls.pinnedPublicKeyHashes.isEmpty {
            let pins = tls.pinnedPublicKeyHashes.map { "sha256//\($0)" }.joined(separator: ";")
            try set(CURLOPT_PINNEDPUBLICKEY, pins)
        }
        return verifier
    }
}
