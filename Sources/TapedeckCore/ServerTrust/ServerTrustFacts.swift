import Foundation

/// What a transport found out about a server's certificate chain, for ``ServerTrustEvaluator`` to judge.
/// Gathering the facts is the transport's job (OpenSSL during a live handshake, swift-certificates for a recorded
/// chain); deciding is the evaluator's, so every transport applies the same rules.
public struct ServerTrustFacts: Hashable, Sendable {
    /// The host name or address the request was addressed to, or `nil` to skip name checks.
    public var host: String?
    /// The certificates the server presented, DER, leaf first.
    public var presentedChain: [Data]
    /// Whether the chain validates (signatures, validity dates, path) to a trusted anchor. Host names are not
    /// part of this fact; see ``hostMatches``.
    public var chainIsTrusted: Bool
    /// Why the chain does not validate, when it does not (e.g. `"certificate has expired"`).
    public var chainFailureReason: String?
    /// Whether the leaf names ``host`` (subject alternative names, or the common name when there are none).
    public var hostMatches: Bool
    /// The chain built with the policy's pinned certificates as the only anchors, DER, leaf first and anchor last,
    /// or `nil` when no such chain validates. Needed only for certificate pinning.
    public var pinnedAnchorChain: [Data]?
    /// The `SubjectPublicKeyInfo` (DER) of every certificate of the chain, including an anchor the transport added.
    public var publicKeys: [Data]

    /// Creates facts.
    public init(
        host: String?,
        presentedChain: [Data],
        chainIsTrusted: Bool,
        chainFailureReason: String? = nil,
        hostMatches: Bool,
        pinnedAnchorChain: [Data]? = nil,
        publicKeys: [Data]
    ) {
        self.host = host
        self.presentedChain = presentedChain
        self.chainIsTrusted = chainIsTrusted
        self.chainFailureReason = chainFailureReason
        self.hostMatches = hostMatches
        self.pinnedAnchorChain = pinnedAnchorChain
        self.publicKeys = publicKeys
    }
}
