import Foundation

/// Where a ``SessionPipeline`` takes the cookies a request sends and puts the ones a response sets: Tapedeck's own
/// ``CookieStore``, or (through the URLSession adapter) a configuration's `HTTPCookieStorage`.
///
/// ```swift
/// let pipeline = SessionPipeline(cookies: CookieStore())
/// ```
public protocol CookieJar: Sendable {
    /// The `Cookie` header value for a request to `url`, or `nil` when no cookie applies.
    func cookieHeader(for url: URL) -> String?
    /// Stores what the `Set-Cookie` field values of a response from `url` set.
    func store(setCookieHeaders headers: [String], for url: URL)
}

extension CookieStore: CookieJar {}
