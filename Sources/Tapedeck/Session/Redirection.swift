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
/// `Location` is resolved against the URL that answered; only `http` and `https` targets are followed. A hop to
/// another origin (scheme, host or port) drops `Authorization` and any `Cookie` header set by hand (the cookie store
/// adds the cookies that belong to the new origin); a body-less `GET` also drops the body's `Content-*` headers.
///
/// ```swift
/// let next = Redirection.nextRequest(after: head, from: request)   // nil: deliver `head`'s response
/// ```
public enum Redirection {
    /// The statuses a session follows.
    public static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send after `head` answered `request`, or `nil` when the response is not a redirect to follow.
    public static func nextRequest(after head: HTTPResponseHead, from request: HTTPRequest) -> HTTPRequest? {
        guard followedStatuses.contains(head.statusCode), let location = head.headers["Location"],
              let target = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: head.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return nil }
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
