import Foundation
import TapedeckCore

/// A cookie jar with the semantics of RFC 6265: stores the cookies of `Set-Cookie` response headers and answers the
/// `Cookie` header of a request. Safe to share between session managers and threads.
///
/// ```swift
/// let cookies = CookieStore()
/// let url = URL(string: "https://shop.example.com/cart/items")!
/// cookies.store(setCookieHeaders: ["id=a3fWa; Domain=example.com; Path=/; Max-Age=3600; Secure; HttpOnly",
///                                  "theme=dark"], for: url)
/// cookies.cookieHeader(for: URL(string: "https://www.example.com/")!)       // "id=a3fWa"
/// cookies.cookieHeader(for: URL(string: "https://shop.example.com/cart")!)  // "theme=dark; id=a3fWa"
///
/// try cookies.save(to: fileURL)                 // persistent cookies only
/// let restored = try CookieStore(contentsOf: fileURL)
/// ```
///
/// What it implements: the parsing of §5.2 (with the lax date format of §5.1.1 for `Expires`, and `Max-Age` winning
/// over it), the storage rules of §5.3 (host-only and domain cookies, default paths, a replaced cookie keeps its
/// creation time, an expired cookie deletes its namesake) and the retrieval of §5.4 (domain- and path-match, `Secure`
/// only over `https`/`wss`, longer paths first, then earlier creation). From draft-ietf-httpbis-rfc6265bis it takes:
/// `Secure` cookies are refused from insecure requests, and names or values with control characters or longer than
/// 4096 bytes together are refused.
///
/// Limits, on purpose or not yet done: `Domain` attributes that are public suffixes are refused using a compact
/// built-in list (single-label names plus common multi-label suffixes such as `co.uk` or `github.io`), not the full
/// Public Suffix List; `SameSite` is stored but not enforced (the store does not know the site a request comes from);
/// there is no limit on the number of cookies per domain or in total, so nothing is evicted but expired cookies;
/// host names are compared in ASCII lower case without IDNA conversion; plain `http` to a loopback address is not
/// treated as secure.
public final class CookieStore: Sendable {
    private let state = Locked(CookieIndex())
    private let clock: any WallClock

    /// An empty store whose expiry and creation times come from `clock`.
    public init(clock: any WallClock = .system) {
        self.clock = clock
    }

    /// The time now, to the millisecond (as the store keeps and saves times).
    var now: Date { Timestamp.truncated(clock.now) }

    // MARK: Responses

    /// Applies the `Set-Cookie` header values of a response to a request for `url`, in order.
    ///
    /// Headers that do not parse or that the storage rules refuse (a `Domain` that is a public suffix or that the
    /// host does not domain-match, a `Secure` cookie over plain `http`) are ignored, as a browser ignores them. A
    /// cookie with the name, domain and path of a stored one replaces it and keeps its creation time; one that is
    /// already expired (`Max-Age=0`, an `Expires` in the past) deletes it. A URL without a host stores nothing.
    public func store(setCookieHeaders headers: [String], for url: URL) {
        guard !headers.isEmpty, let target = CookieRequestTarget(url) else { return }
        let now = self.now
        let cookies = headers.compactMap { header -> Cookie? in
            try? CookieStoragePolicy.cookie(fromHeader: header, target: target, now: now).get()
        }
        guard !cookies.isEmpty else { return }
        state.withLock { index in
            for cookie in cookies { index.insert(cookie, keepingCreationTime: true, now: now) }
        }
    }

    // MARK: Requests

    /// The value of the `Cookie` header for a request to `url` (§5.4), or `nil` when no cookie applies.
    ///
    /// Cookies are selected by domain (a host-only cookie by its exact host), path and `Secure` (only for `https`
    /// and `wss`), skipping and removing expired ones, and ordered longer path first, then earlier creation. Their
    /// last-access time becomes now.
    public func cookieHeader(for url: URL) -> String? {
        guard count > 0, let target = CookieRequestTarget(url) else { return nil }
        return header(for: target)
    }

    /// ``cookieHeader(for:)`` for an already split request.
    func header(for target: CookieRequestTarget) -> String? {
        let now = self.now
        return state.withLock { index in index.header(index.matches(for: target, now: now), touchingAt: now) }
    }

    /// The cookies a request to `url` would send, in `Cookie` header order. Unlike ``cookieHeader(for:)`` this
    /// does not change their last-access time.
    public func cookies(for url: URL) -> [Cookie] {
        guard let target = CookieRequestTarget(url) else { return [] }
        let now = self.now
        return state.withLock { index in index.cookies(index.matches(for: target, now: now)) }
    }

    // MARK: Reading and changing the store

    /// Every unexpired cookie, in the order first stored (a replacement keeps its predecessor's place).
    public var allCookies: [Cookie] {
        let now = self.now
        return state.withLock { index in
            index.removeExpired(now: now)
            return index.all.map(\.cookie)
        }
    }

    /// How many cookies the store holds, expired ones not yet removed included.
    public var count: Int { state.withLock { $0.count } }

    /// Stores `cookie` as given (its creation time included), replacing the cookie with the same name, domain and
    /// path. No storage rule is applied: it is for tests and for cookies an application makes itself. An expired
    /// cookie only removes its namesake.
    public func set(_ cookie: Cookie) {
        var cookie = cookie
        cookie.domain = CookieHost.canonicalDomain(cookie.domain)
        let now = self.now
        state.withLock { $0.insert(cookie, keepingCreationTime: false, now: now) }
    }

    /// Removes the cookie with this name, domain and path; returns it, or `nil` when there was none.
    @discardableResult
    public func remove(name: String, domain: String, path: String = "/") -> Cookie? {
        let domain = CookieHost.canonicalDomain(domain)
        return state.withLock { $0.remove(name: name, domain: domain, path: path)?.cookie }
    }

    /// Removes the stored cookie with `cookie`'s name, domain and path (whatever its value); returns it.
    @discardableResult
    public func remove(_ cookie: Cookie) -> Cookie? {
        remove(name: cookie.name, domain: cookie.domain, path: cookie.path)
    }

    /// Removes every cookie.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }

    /// Removes the cookies whose expiry time has passed; returns how many.
    @discardableResult
    public func removeExpired() -> Int {
        let now = self.now
        return state.withLock { $0.removeExpired(now: now) }
    }

    // MARK: Persistence support

    /// Every cookie with its insertion order, for saving.
    func snapshot() -> [Cookie] {
        state.withLock { $0.all.map(\.cookie) }
    }

    /// Adds loaded cookies as they are; expired ones are dropped.
    func load(_ cookies: [Cookie]) {
        let now = self.now
        state.withLock { index in
            for cookie in cookies { index.insert(cookie, keepingCreationTime: false, now: now) }
        }
    }
}
