import Foundation

/// Where a redirect leads: the request a session sends next after a `3xx`, following what `NSURLSession` does.
/// Pure logic.
///
/// | status | next request |
/// |---|---|
/// | 301 Moved Permanently, 302 Found | the same, except that a `POST` becomes a body-less `GET` |
/// | 303 See Other | a body-less `GET` (a `HEAD` stays a `HEAD`) |
/// | 307 Temporary Redirect, 308 Permanent Redirect | the same method and body |
/// | any other, or no usable `Location` | none: the response is delivered as it is |
///
/// `Location` is resolved against the URL that answered. A `Location` that is not a URL, or whose scheme is not `http`
/// or `https`, is an error (``next(after:from:)``), as it is for NSURLSession. A hop to
/// another origin (scheme, host or port) drops `Authorization` and any `Cookie` header set by hand (the cookie store
/// adds the cookies that belong to the new origin); a body-less `GET` also drops the body's `Content-*` headers.
///
/// ```swift
/// let next = Redirection.nextRequest(after: head, from: request)   // nil: deliver `head`'s response
/// ```
public enum Redirection {
    /// The statuses a session follows.
    public static let followedStatuses = HTTPResponseHead.followedRedirectStatuses

    /// The request to send after `head` answered `request`, or `nil` when the response is not a redirect to follow
    /// (not a followed status, no `Location`) or its `Location` cannot be followed (see ``next(after:from:)``).
    public static func nextRequest(after head: HTTPResponseHead, from request: HTTPRequest) -> HTTPRequest? {
        try? next(after: head, from: request)
    }

    /// The request to send after `head` answered `request`, or `nil` when the response is not a redirect to follow.
    ///
    /// - Throws: `URLError.redirectToNonExistentLocation` naming the value when a followed status carries a
    ///   `Location` that is not a URL; `URLError.unsupportedURL` for a target whose scheme is not `http` or `https`.
    public static func next(after head: HTTPResponseHead, from request: HTTPRequest) throws -> HTTPRequest? {
        guard followedStatuses.contains(head.statusCode), let location = head.headers["Location"] else { return nil }
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        guard let target = URL(string: trimmed, relativeTo: head.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), !trimmed.isEmpty
        else {
            throw URLError(.redirectToNonExistentLocation, failingURL: head.url,
                           reason: "The \(head.statusCode) from \(head.url.absoluteString) redirects to a Location that is not a URL: \"\(location)\".")
        }
        guard scheme == "http" || scheme == "https" else {
            throw URLError(.unsupportedURL, failingURL: target,
                           reason: "The \(head.statusCode) from \(head.url.absoluteString) redirects to \(target.absoluteString), whose scheme is not http or https.")
        }
        guard target.host != nil else {
            throw URLError(.redirectToNonExistentLocation, failingURL: head.url,
                           reason: "The \(head.statusCode) from \(head.url.absoluteString) redirects to a Location with no host: \"\(location)\".")
        }
        var next = request
        next.url = target
        let becomesGET = switch head.statusCode {
        case 303: request.method != .head
        case 301, 302: request.method == .post
        default: false
        }
        if becomesGET {
            next.method = .get
            next.body = .none
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"] {
                next.headers.remove(name: name)
            }
        }
        if !isSameOrigin(request.url, target) {
            next.headers.remove(name: "Authorization")
            next.headers.remove(name: "Cookie")
        }
        return next
    }

    /// Whether two URLs share scheme, host and port (default ports filled in).
    public static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
