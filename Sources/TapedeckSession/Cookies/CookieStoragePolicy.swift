import Foundation

/// The storage model of RFC 6265 §5.3 up to the point of touching the store: from a parsed `Set-Cookie` header and
/// the request it answered, the cookie to store, or why it is refused.
enum CookieStoragePolicy {
    /// Why a `Set-Cookie` header leaves the store unchanged.
    enum Refusal: Error, Equatable {
        /// §5.2: no `=` in the name-value pair, an empty name, control characters, or too long.
        case malformed
        /// §5.3 step 5: the `Domain` attribute is a public suffix other than the request's host.
        case publicSuffixDomain(String)
        /// §5.3 step 6: the request's host does not domain-match the `Domain` attribute.
        case domainMismatch(String)
        /// rfc6265bis: a `Secure` cookie from an insecure request.
        case secureFromInsecureRequest
    }

    /// The latest expiry kept: 9999-12-31T23:59:59Z (`Max-Age` beyond it is cut there, so every stored time can be
    /// written with a four-digit year).
    static let latestExpiry = Date(timeIntervalSince1970: 253_402_300_799)

    /// The cookie `header` asks to store for a request to `target` at `now`. Its expiry may be in the past: storing
    /// that cookie removes the one it would replace.
    static func cookie(
        from header: SetCookieHeader, target: CookieRequestTarget, now: Date
    ) -> Result<Cookie, Refusal> {
        let expires: Date?
        if let maxAge = header.maxAge {
            expires = maxAge <= 0
                ? Date.distantPast
                : now.addingTimeInterval(min(TimeInterval(maxAge), latestExpiry.timeIntervalSince(now)))
        } else if let date = header.expires {
            expires = min(date, latestExpiry)
        } else {
            expires = nil
        }

        var domain = header.domain ?? ""
        if !domain.isEmpty, PublicSuffixes.contains(Substring(domain)) {
            guard domain == target.host else { return .failure(.publicSuffixDomain(domain)) }
            domain = ""  // the host itself is a public suffix (`localhost`, `co.uk`): host-only
        }
        let hostOnly = domain.isEmpty
        if hostOnly {
            domain = target.host
        } else if !CookieHost.domainMatches(host: target.host, domain: domain) {
            return .failure(.domainMismatch(domain))
        }

        let path: String
        if case .path(let value) = header.path { path = value } else { path = CookiePath.defaultPath(for: target.path) }

        if header.secure && !target.isSecure { return .failure(.secureFromInsecureRequest) }

        return .success(Cookie(name: header.name, value: header.value, domain: domain, hostOnly: hostOnly, path: path,
                               expires: expires, secure: header.secure, httpOnly: header.httpOnly,
                               sameSite: header.sameSite, created: now))
    }

    /// Parses `header` and applies the storage rules.
    static func cookie(fromHeader header: String, target: CookieRequestTarget, now: Date) -> Result<Cookie, Refusal> {
        guard let parsed = SetCookieHeader(header) else { return .failure(.malformed) }
        return cookie(from: parsed, target: target, now: now)
    }
}
