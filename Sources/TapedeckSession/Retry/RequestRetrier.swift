/// Decides whether a failed request is sent again (Alamofire's `RequestRetrier`).
///
/// ```swift
/// struct RetryOnce: RequestRetrier {
///     func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision {
///         attempt == 0 ? .retry : .doNotRetry
///     }
/// }
/// ```
public protocol RequestRetrier: Sendable {
    /// The decision for `request` (as it was sent, after adaptation) that failed with `failure` on its `attempt`-th
    /// retry (0 for the first send).
    func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision
}

/// Why a request is considered failed.
public enum RequestFailure: Sendable {
    /// A response arrived that is not acceptable (e.g. a 503, or a 401 for an authenticator).
    case response(HTTPResponse)
    /// The request failed with an error, e.g. a `URLError` from the transport, or a validation error with the
    /// response that caused it.
    case error(any Error, response: HTTPResponse? = nil)

    /// The response, if one arrived.
    public var response: HTTPResponse? {
        switch self {
        case .response(let response): return response
        case .error(_, let response): return response
        }
    }

    /// The error, if the failure is one.
    public var error: (any Error)? {
        if case .error(let error, _) = self { return error }
        return nil
    }
}

/// What a retrier decided.
public enum RetryDecision: Sendable {
    /// Send the request again now.
    case retry
    /// Send the request again after this delay.
    case retryAfter(Duration)
    /// Do not send it again; the failure stands.
    case doNotRetry
    /// Do not send it again; fail with this error instead.
    case doNotRetryWithError(any Error)

    /// Whether the request is sent again.
    public var retries: Bool {
        switch self {
        case .retry, .retryAfter: return true
        case .doNotRetry, .doNotRetryWithError: return false
        }
    }
}
