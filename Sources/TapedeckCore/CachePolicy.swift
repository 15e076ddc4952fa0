/// How a request may use the HTTP cache (`Tapedeck.HTTPCache`): `NSURLRequest.CachePolicy`'s four policies.
///
/// ```swift
/// var request = HTTPRequest(url: url)
/// request.cachePolicy = .returnCacheDataElseLoad
/// ```
public enum CachePolicy: Hashable, Sendable {
    /// The rules of HTTP caching (RFC 9111): a fresh stored response answers, a stale one is revalidated, and the
    /// request's and the response's `Cache-Control` directives are honoured. The default.
    case useProtocolCachePolicy
    /// Always load from the origin; the response is still stored for later requests.
    case reloadIgnoringLocalCacheData
    /// Answer with any stored response, however old; load only when nothing is stored.
    case returnCacheDataElseLoad
    /// Answer with any stored response, however old; never load. With nothing stored the request fails
    /// , as `NSURLSession` fails it with `URLError.resourceUnavailable`.
    case returnCacheDataDontLoad
}
