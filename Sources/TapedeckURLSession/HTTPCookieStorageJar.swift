import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckSession

/// A URLSession configuration's cookies as the session pipeline's ``TapedeckSession/CookieJar``: cookies come from
/// and go to its `httpCookieStorage`, as URLSession's own HTTP protocol does.
///
/// - Sending: only when the configuration's `httpShouldSetCookies` is on (the request's `httpShouldHandleCookies`
///   turns the pipeline's cookies off for one request).
/// - Storing: never under the accept policy `.never`; otherwise through `setCookies(_:for:mainDocumentURL:)` with
///   the response's URL as the main document, so `.onlyFromMainDocumentDomain` keeps the cookies a host sets for
///   itself.
struct HTTPCookieStorageJar: CookieJar, @unchecked Sendable {
    // HTTPCookieStorage locks its own state; it is not marked Sendable.
    let storage: HTTPCookieStorage
    let sends: Bool
    let acceptPolicy: HTTPCookie.AcceptPolicy

    /// The jar for `configuration`, or `nil` when it has no cookie storage or neither sends nor stores cookies.
    init?(configuration: URLSessionConfiguration) {
        guard let storage = configuration.httpCookieStorage else { return nil }
        self.storage = storage
        sends = configuration.httpShouldSetCookies
        acceptPolicy = configuration.httpCookieAcceptPolicy
        if !sends && acceptPolicy == .never { return nil }
    }

    func cookieHeader(for url: URL) -> String? {
        guard sends, let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    func store(setCookieHeaders headers: [String], for url: URL) {
        guard acceptPolicy != .never else { return }
        var cookies = headers.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        // HTTPCookieStorage judges expiry by the system's time: in a replay on the recording's clock, a cookie's
        // expiry moves by as much as that clock is behind, so it lives as long as it did in the live run.
        if let recorded = RecordedTime.current {
            let offset = Date().timeIntervalSince(recorded.now)
            cookies = cookies.map { cookie in
                // A `Max-Age` is counted from the system's now already; an `Expires` date is the recording's.
                guard let expires = cookie.expiresDate, var properties = cookie.properties,
                      properties[.maximumAge] == nil else { return cookie }
                properties[.expires] = expires.addingTimeInterval(offset)
                return HTTPCookie(properties: properties) ?? cookie
            }
        }
        if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: url) }
    }
}
