import Foundation
import TapedeckCore

/// The parameters of a `Digest` challenge (RFC 7616 §3.3), checked and typed.
///
/// ```swift
/// if let digest = DigestChallenge(challenge) {
///     digest.algorithm   // .sha256
///     digest.isStale     // true: retry with the new nonce, same credential
/// }
/// ```
public struct DigestChallenge: Hashable, Sendable {
    /// The realm (empty when the challenge named none).
    public var realm: String
    /// The server nonce.
    public var nonce: String
    /// The opaque value to echo, if any.
    public var opaque: String?
    /// The algorithm (``DigestAlgorithm/md5`` when none was named).
    public var algorithm: DigestAlgorithm
    /// Whether the challenge named the algorithm; only then is it echoed in the answer, as RFC 2617 servers expect.
    public var namesAlgorithm: Bool
    /// The qop values offered, in order; empty for an RFC 2069 challenge without `qop`.
    public var qopOptions: [DigestQualityOfProtection]
    /// `stale=true`: the credential was right but the nonce expired, so retry with the new nonce without asking again.
    public var isStale: Bool
    /// `userhash=true`: the server accepts a hashed user name.
    public var supportsUserhash: Bool

    /// Creates challenge parameters.
    public init(realm: String, nonce: String, opaque: String? = nil, algorithm: DigestAlgorithm = .md5, namesAlgorithm: Bool = true,
                qopOptions: [DigestQualityOfProtection] = [.auth], isStale: Bool = false, supportsUserhash: Bool = false) {
        self.realm = realm
        self.nonce = nonce
        self.opaque = opaque
        self.algorithm = algorithm
        self.namesAlgorithm = namesAlgorithm
        self.qopOptions = qopOptions
        self.isStale = isStale
        self.supportsUserhash = supportsUserhash
    }

    /// The digest parameters of `challenge`, or `nil` when it is not `Digest`, has no nonce, names an algorithm that is
    /// not supported, or offers only qop values that are not.
    public init?(_ challenge: AuthenticationChallenge) {
        guard challenge.scheme == .digest, let nonce = challenge["nonce"] else { return nil }
        var algorithm = DigestAlgorithm.md5
        if let name = challenge["algorithm"] {
            guard let named = DigestAlgorithm(token: name) else { return nil }
            algorithm = named
        }
        var options: [DigestQualityOfProtection] = []
        if let qop = challenge["qop"] {
            for item in HTTPFieldSyntax.listElements(qop) {
                let token = item.lowercased()
                if let option = DigestQualityOfProtection(rawValue: token), !options.contains(option) { options.append(option) }
            }
            guard !options.isEmpty else { return nil }
        }
        self.init(realm: challenge.realm ?? "", nonce: nonce, opaque: challenge["opaque"], algorithm: algorithm,
                  namesAlgorithm: challenge["algorithm"] != nil, qopOptions: options,
                  isStale: challenge["stale"]?.lowercased() == "true",
                  supportsUserhash: challenge["userhash"]?.lowercased() == "true")
    }
}
