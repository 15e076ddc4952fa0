/// What the cache says about a request before it is sent: ``HTTPCache/lookup(_:policy:)``'s answer.
///
/// ```swift
/// switch cache.lookup(request, policy: .useProtocolCachePolicy) {
/// case .hit(let response): return response                       // no transport
/// case .unavailable: throw URLError(.resourceUnavailable)
/// case .miss, .validate: break                                    // send lookup.requestToSend(for: request)
/// }
/// ```
public enum CacheLookup: Sendable {
    /// Answer with this stored response without the transport. It carries an `Age` header.
    case hit(HTTPResponse)
    /// Send this conditional request (`If-None-Match` / `If-Modified-Since` from the stored validators) instead of
    /// the original, then hand the answer to ``HTTPCache/store(_:for:after:requestTime:responseTime:)`` with this
    /// lookup: a `304` there becomes the stored response.
    case validate(HTTPRequest, CachedResponse)
    /// Nothing usable is stored: send the request as it is.
    case miss
    /// The request must not reach the transport and nothing usable is stored: the policy is
    /// `CachePolicy.returnCacheDataDontLoad` or the request says `Cache-Control: only-if-cached`. A session fails
    /// the task with `URLError.resourceUnavailable`.
    case unavailable

    /// The request to send for `original` after this lookup, or `nil` when nothing is to be sent.
    public func requestToSend(for original: HTTPRequest) -> HTTPRequest? {
        switch self {
        case .hit, .unavailable: return nil
        case .miss: return original
        case .validate(let conditional, _): return conditional
        }
    }
}
