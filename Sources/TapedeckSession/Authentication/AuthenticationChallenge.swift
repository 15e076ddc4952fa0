/// One challenge from a `WWW-Authenticate` (401) or `Proxy-Authenticate` (407) header field (RFC 9110 §11.6.1):
/// a scheme followed by either auth-params or a token68.
///
/// ```swift
/// let challenges = AuthenticationChallenge.challenges(in: response.head)
/// // WWW-Authenticate: Digest realm="api", nonce="abc", qop="auth", Basic realm="api"
/// challenges.map(\.scheme)   // [.digest, .basic]
/// challenges[0].realm        // "api"
/// challenges[0]["qop"]       // "auth"
/// ```
public struct AuthenticationChallenge: Hashable, Sendable {
    /// The scheme, e.g. ``AuthenticationScheme/digest``.
    public var scheme: AuthenticationScheme
    /// The auth-params by lowercase name, with quoted-string values unquoted and unescaped. A name repeated within a
    /// challenge keeps its first value.
    public var parameters: [String: String]
    /// The token68 that stands in for parameters in some schemes (`Negotiate YII…`), or `nil`.
    public var token68: String?
    /// Whether this came from `Proxy-Authenticate` (a 407) rather than `WWW-Authenticate`.
    public var isProxy: Bool

    /// Creates a challenge; parameter names are lowercased.
    public init(scheme: AuthenticationScheme, parameters: [String: String] = [:], token68: String? = nil, isProxy: Bool = false) {
        self.scheme = scheme
        var lowered: [String: String] = [:]
        for (name, value) in parameters { lowered[AuthenticationScheme(name).name] = value }
        self.parameters = lowered
        self.token68 = token68
        self.isProxy = isProxy
    }

    /// The `realm` parameter, compared case-sensitively.
    public var realm: String? { parameters["realm"] }

    /// The parameter named `name` (any case).
    public subscript(name: String) -> String? { parameters[AuthenticationScheme(name).name] }

    /// The challenges in one header field value, in order. Malformed parts are skipped; parsing never fails.
    ///
    /// ```swift
    /// AuthenticationChallenge.parse(#"Basic realm="a \"quoted\" realm", charset="UTF-8""#)
    /// ```
    public static func parse(_ headerValue: String, isProxy: Bool = false) -> [AuthenticationChallenge] {
        var parser = ChallengeParser(headerValue)
        return parser.parseChallenges(isProxy: isProxy)
    }

    /// The challenges in several header field values (one field each), in order.
    public static func parse(headerValues: some Sequence<String>, isProxy: Bool = false) -> [AuthenticationChallenge] {
        headerValues.flatMap { parse($0, isProxy: isProxy) }
    }

    /// The challenges a response carries: its `WWW-Authenticate` fields for a 401, its `Proxy-Authenticate` fields for
    /// a 407, and none for any other status.
    public static func challenges(in head: HTTPResponseHead) -> [AuthenticationChallenge] {
        switch head.statusCode {
        case 401: return parse(headerValues: head.headers.values(for: "WWW-Authenticate"), isProxy: false)
        case 407: return parse(headerValues: head.headers.values(for: "Proxy-Authenticate"), isProxy: true)
        default: return []
        }
    }
}
