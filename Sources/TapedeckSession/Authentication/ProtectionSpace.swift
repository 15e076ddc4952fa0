import Foundation

/// Where a credential applies (RFC 9110 §11.5): the origin (URL scheme, host and port) of a server or proxy, and the
/// realm its challenge names. The same credential answers `Basic` and `Digest` challenges of one protection space.
///
/// ```swift
/// let space = ProtectionSpace(url: URL(string: "https://api.example.com/v1")!, realm: "api")
/// store.set(Credential(user: "ada", password: "secret"), for: space)
/// ```
public struct ProtectionSpace: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lowercase.
    public var urlScheme: String
    /// The host, lowercase.
    public var host: String
    /// The port, the URL scheme's default (80 or 443) when the URL names none.
    public var port: Int
    /// The realm, case-sensitive, or `nil` for a challenge without one (and, in a ``CredentialStore``, for "any
    /// realm of this origin").
    public var realm: String?
    /// Whether this is a proxy's protection space (a 407 challenge) rather than the origin server's.
    public var isProxy: Bool

    /// Creates a protection space.
    public init(urlScheme: String, host: String, port: Int, realm: String?, isProxy: Bool = false) {
        self.urlScheme = urlScheme.lowercased()
        self.host = host.lowercased()
        self.port = port
        self.realm = realm
        self.isProxy = isProxy
    }

    /// The protection space of `url`'s origin with `realm`.
    public init(url: URL, realm: String?, isProxy: Bool = false) {
        let scheme = url.scheme?.lowercased() ?? "http"
        self.init(urlScheme: scheme, host: url.host ?? "", port: url.port ?? (scheme == "https" ? 443 : 80),
                  realm: realm, isProxy: isProxy)
    }

    /// The protection space a challenge names: `url` is the server's URL for a 401, the proxy's for a 407.
    public init(challenge: AuthenticationChallenge, url: URL) {
        self.init(url: url, realm: challenge.realm, isProxy: challenge.isProxy)
    }

    /// This space without its realm: the key a store consults when no credential is set for the realm itself.
    public var anyRealm: ProtectionSpace {
        var space = self
        space.realm = nil
        return space
    }

    /// How messages and reports print it.
    public var description: String {
        let origin = "\(urlScheme)://\(host):\(port)"
        let realmText = realm.map { " realm=\"\($0)\"" } ?? ""
        return (isProxy ? "proxy " : "") + origin + realmText
    }
}
