import Foundation
import TapedeckCore

/// Answers `Digest` challenges (RFC 7616): computes the `response` hash and writes the `Authorization` value.
///
/// Names, passwords and realms are hashed as UTF-8. The client nonce comes from ``makeClientNonce`` (random by
/// default; fixed in tests) and the nonce count from the caller, normally a ``DigestNonceCounter``.
///
/// ```swift
/// let digest = DigestAuthentication()
/// if let challenge = DigestChallenge(parsedChallenge),
///    let answer = digest.authorization(for: challenge, credential: credential, method: request.method,
///                                      uri: DigestAuthentication.requestURI(of: request.url), body: request.body,
///                                      nonceCount: counter.next(for: challenge.nonce)) {
///     request.headers["Authorization"] = answer.headerValue
/// }
/// ```
public struct DigestAuthentication: Sendable {
    /// Makes a fresh client nonce (`cnonce`) for each answer.
    public var makeClientNonce: @Sendable () -> String
    /// Whether to send `H(user:realm)` instead of the user name when the server offers `userhash=true`. Default `true`.
    public var hashesUsername: Bool
    /// Whether to choose `auth-int` over `auth` when both are offered. Default `false`; `auth-int` is used anyway when it
    /// is the only qop offered (if the body can be hashed: no body, in memory, or a file).
    public var prefersIntegrityProtection: Bool

    /// Creates a Digest answerer.
    public init(
        hashesUsername: Bool = true,
        prefersIntegrityProtection: Bool = false,
        makeClientNonce: @escaping @Sendable () -> String = DigestAuthentication.randomClientNonce
    ) {
        self.hashesUsername = hashesUsername
        self.prefersIntegrityProtection = prefersIntegrityProtection
        self.makeClientNonce = makeClientNonce
    }

    /// 16 random bytes as 32 hex digits.
    @Sendable public static func randomClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }.lowercaseHex
    }

    /// The request-target a `Digest` answer names as `uri`: the URL's percent-encoded path (`/` when empty) and query.
    public static func requestURI(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.path }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// The `response` value (RFC 7616 §3.4.1): `KD(H(A1), nonce:nc:cnonce:qop:H(A2))`, or `H(H(A1):nonce:H(A2))` for a
    /// challenge without qop.
    ///
    /// - Parameters:
    ///   - algorithm: the hash and whether it is a `-sess` variant.
    ///   - user: the user name.
    ///   - realm: the challenge's realm.
    ///   - password: the password.
    ///   - nonce: the server's nonce.
    ///   - clientNonce: the client's nonce (`cnonce`).
    ///   - nonceCount: how many times this nonce has been used, this request included (`nc`).
    ///   - qop: the quality of protection chosen, or `nil` for an RFC 2069 challenge.
    ///   - method: the request's method.
    ///   - uri: the request-target, as ``requestURI(of:)`` gives it.
    ///   - bodyDigest: the hex digest of the body with the same algorithm, for `auth-int`.
    public static func response(
        algorithm: DigestAlgorithm, user: String, realm: String, password: String, nonce: String, clientNonce: String,
        nonceCount: UInt32, qop: DigestQualityOfProtection?, method: HTTPMethod, uri: String, bodyDigest: String? = nil
    ) -> String {
        var a1 = algorithm.hexDigest("\(user):\(realm):\(password)")
        if algorithm.isSession { a1 = algorithm.hexDigest("\(a1):\(nonce):\(clientNonce)") }
        var a2 = "\(method.rawValue):\(uri)"
        if qop == .authInt { a2 += ":" + (bodyDigest ?? algorithm.hexDigest(Data())) }
        let hashedA2 = algorithm.hexDigest(a2)
        guard let qop else { return algorithm.hexDigest("\(a1):\(nonce):\(hashedA2)") }
        return algorithm.hexDigest("\(a1):\(nonce):\(formatNonceCount(nonceCount)):\(clientNonce):\(qop.rawValue):\(hashedA2)")
    }

    /// The answer to `challenge` for a request, or `nil` when only `auth-int` is offered and the body is a stream (or a
    /// file that cannot be read), whose hash cannot be taken in advance.
    public func authorization(
        for challenge: DigestChallenge, credential: Credential, method: HTTPMethod, uri: String,
        body: HTTPRequestBody = .none, nonceCount: UInt32
    ) -> DigestAuthorization? {
        let qop: DigestQualityOfProtection?
        if challenge.qopOptions.isEmpty {
            qop = nil
        } else if challenge.qopOptions.contains(.auth) && !(prefersIntegrityProtection && challenge.qopOptions.contains(.authInt)) {
            qop = .auth
        } else {
            qop = .authInt
        }
        var bodyDigest: String?
        if qop == .authInt {
            switch body {
            case .none: bodyDigest = challenge.algorithm.hexDigest(Data())
            case .data(let data): bodyDigest = challenge.algorithm.hexDigest(data)
            case .file(let url): bodyDigest = challenge.algorithm.hexDigest(contentsOf: url)
            case .stream: bodyDigest = nil
            }
            guard bodyDigest != nil else { return nil }
        }
        let clientNonce = makeClientNonce()
        let response = Self.response(
            algorithm: challenge.algorithm, user: credential.user, realm: challenge.realm, password: credential.password,
            nonce: challenge.nonce, clientNonce: clientNonce, nonceCount: nonceCount, qop: qop, method: method, uri: uri,
            bodyDigest: bodyDigest)

        let quoted = HTTPFieldSyntax.quoted
        var fields: [String] = []
        let userhash = hashesUsername && challenge.supportsUserhash
        if userhash {
            fields.append("username=" + quoted(challenge.algorithm.hexDigest("\(credential.user):\(challenge.realm)")))
        } else if credential.user.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            fields.append("username=" + quoted(credential.user))
        } else {
            fields.append("username*=UTF-8''" + Self.extendedValue(credential.user))
        }
        fields.append("realm=" + quoted(challenge.realm))
        fields.append("uri=" + quoted(uri))
        if challenge.namesAlgorithm { fields.append("algorithm=" + challenge.algorithm.rawValue) }
        fields.append("nonce=" + quoted(challenge.nonce))
        if let qop {
            fields.append("nc=" + Self.formatNonceCount(nonceCount))
            fields.append("cnonce=" + quoted(clientNonce))
            fields.append("qop=" + qop.rawValue)
        }
        fields.append("response=" + quoted(response))
        if let opaque = challenge.opaque { fields.append("opaque=" + quoted(opaque)) }
        if userhash { fields.append("userhash=true") }
        return DigestAuthorization(headerValue: "Digest " + fields.joined(separator: ", "), response: response,
                                   clientNonce: clientNonce, nonceCount: nonceCount, qop: qop)
    }

    /// `nc`: eight lowercase hex digits.
    static func formatNonceCount(_ count: UInt32) -> String {
        let digits = String(count, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The value part of an RFC 8187 ext-value: UTF-8 bytes, attr-chars kept, the rest percent-encoded.
    static func extendedValue(_ value: String) -> String {
        let kept = Set("!#$&+-.^_`|~".utf8)
        var text = ""
        for byte in value.utf8 {
            if byte.isASCIIAlphanumeric || kept.contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "%" + [byte].lowercaseHex.uppercased()
            }
        }
        return text
    }
}

/// One `Digest` answer: the header value and the pieces that went into it.
public struct DigestAuthorization: Hashable, Sendable {
    /// The `Authorization` / `Proxy-Authorization` value, starting `Digest `.
    public var headerValue: String
    /// The `response` hash.
    public var response: String
    /// The client nonce used.
    public var clientNonce: String
    /// The nonce count used.
    public var nonceCount: UInt32
    /// The qop chosen, or `nil` for an RFC 2069 answer.
    public var qop: DigestQualityOfProtection?
}
