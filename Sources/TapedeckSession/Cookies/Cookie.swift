import Foundation

/// One stored HTTP cookie: the record RFC 6265 §5.3 keeps for a `Set-Cookie` header that was accepted.
///
/// A ``CookieStore`` creates these from responses; tests and applications may also build them and hand them to
/// ``CookieStore/set(_:)``.
///
/// ```swift
/// let cookie = Cookie(name: "session", value: "abc", domain: "example.com", path: "/", secure: true)
/// store.set(cookie)
/// ```
public struct Cookie: Hashable, Sendable, Codable {
    /// The cookie's name (never empty).
    public var name: String
    /// The cookie's value, as the server sent it (quotes included, if any).
    public var value: String
    /// The domain the cookie belongs to, in lower case without a leading dot: the request's host for a host-only
    /// cookie, the `Domain` attribute otherwise.
    public var domain: String
    /// `true` when the cookie is sent to ``domain`` only, `false` when it is sent to its subdomains as well
    /// (it came with a `Domain` attribute).
    public var hostOnly: Bool
    /// The path the cookie is sent under: the `Path` attribute, or the default path of the request that set it.
    public var path: String
    /// When the cookie expires (from `Max-Age` or `Expires`); `nil` for a session cookie, which lives as long as
    /// the store and is not saved unless asked.
    public var expires: Date?
    /// `true` when the cookie is sent over secure connections (`https`, `wss`) only.
    public var secure: Bool
    /// `true` when the cookie came with `HttpOnly` (kept for scripts' APIs; HTTP requests send it either way).
    public var httpOnly: Bool
    /// The `SameSite` attribute as sent (`Strict`, `Lax` and `None` in that spelling, other values as written), or
    /// `nil` without one. Stored only: this store has no notion of the site a request comes from.
    public var sameSite: String?
    /// When the cookie was first stored; a replacement with the same name, domain and path keeps it.
    public var created: Date
    /// When the cookie was last sent in a `Cookie` header (its creation time until then).
    public var lastAccessed: Date

    /// Creates a cookie. `domain` is lower-cased and loses a leading dot; `lastAccessed` defaults to `created`.
    public init(
        name: String, value: String, domain: String, hostOnly: Bool = false, path: String = "/",
        expires: Date? = nil, secure: Bool = false, httpOnly: Bool = false, sameSite: String? = nil,
        created: Date = Date(), lastAccessed: Date? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = CookieHost.canonicalDomain(domain)
        self.hostOnly = hostOnly
        self.path = path
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.created = created
        self.lastAccessed = lastAccessed ?? created
    }

    /// `true` when the cookie has an expiry time that is not after `date`.
    public func isExpired(at date: Date) -> Bool {
        guard let expires else { return false }
        return expires <= date
    }

    /// `name=value`, as the cookie appears in a `Cookie` header.
    public var headerPair: String { name + "=" + value }
}

extension Cookie: CustomStringConvertible {
    /// The cookie in `Set-Cookie` syntax with its domain and flags, for logs and test failures.
    public var description: String {
        var text = "\(name)=\(value); Domain=\(domain)\(hostOnly ? " (host-only)" : ""); Path=\(path)"
        if let expires { text += "; Expires=\(Timestamp.format(expires))" }
        if secure { text += "; Secure" }
        if httpOnly { text += "; HttpOnly" }
        if let sameSite { text += "; SameSite=\(sameSite)" }
        return text
    }
}
