import Foundation

/// Retries what is safe and likely to succeed later, with exponential backoff: Alamofire's `RetryPolicy` with jitter,
/// a delay cap and `Retry-After`.
///
/// A failure is retried when all of these hold: fewer than ``retryLimit`` retries were made; the method is in
/// ``retryableMethods`` (idempotent ones by default); and the response's status is in ``retryableStatusCodes`` or the
/// error is a `URLError` whose code is in ``retryableURLErrorCodes``. Cancellation is never retried.
///
/// The delay is the response's `Retry-After` (seconds or an HTTP-date, measured against ``clock``) when present and
/// ``honorsRetryAfter``, else ``backoff``'s. A `Retry-After` longer than the backoff's maximum delay is not waited
/// for: the failure is delivered instead. The decision is ``RetryDecision/retryAfter(_:)``; whoever runs the request
/// waits (``InterceptorLoop`` sleeps on its clock, so a `ManualWallClock` makes tests instant).
///
/// ```swift
/// let clock = ManualWallClock()
/// let policy = RetryPolicy(retryLimit: 3, backoff: RetryBackoff(initialDelay: .seconds(1), jitter: .none), clock: clock)
/// let loop = InterceptorLoop(interceptor: policy, clock: clock)
/// let response = try await loop.send(request) { try await transport.send($0) }
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`: the idempotent methods (RFC 9110 §9.2.2).
    public static let defaultRetryableMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]
    /// 408, 429, 500, 502, 503, 504.
    public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Transient network failures: timeouts, lost or refused connections, name resolution, no network.
    public static let defaultRetryableURLErrorCodes: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet, .badServerResponse, .cannotLoadFromNetwork, .dataNotAllowed,
        .internationalRoamingOff, .callIsActive,
    ]

    /// The most retries for one request (not counting the first send). Default 2.
    public var retryLimit: Int
    /// Methods that may be sent again.
    public var retryableMethods: Set<HTTPMethod>
    /// Statuses worth retrying.
    public var retryableStatusCodes: Set<Int>
    /// `URLError` codes worth retrying.
    public var retryableURLErrorCodes: Set<URLError.Code>
    /// How long to wait before each retry.
    public var backoff: RetryBackoff
    /// Whether a `Retry-After` header sets the delay. Default `true`.
    public var honorsRetryAfter: Bool
    /// What `Retry-After` dates are measured against.
    public var clock: any WallClock

    /// Creates a policy.
    public init(
        retryLimit: Int = 2,
        retryableMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableMethods,
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
        retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.defaultRetryableURLErrorCodes,
        backoff: RetryBackoff = RetryBackoff(),
        honorsRetryAfter: Bool = true,
        clock: any WallClock = SystemWallClock()
    ) {
        self.retryLimit = retryLimit
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.backoff = backoff
        self.honorsRetryAfter = honorsRetryAfter
        self.clock = clock
    }

    public func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision {
        guard attempt < retryLimit, shouldRetry(request, dueTo: failure) else { return .doNotRetry }
        guard let delay = delay(forAttempt: attempt, response: failure.response?.head) else { return .doNotRetry }
        return .retryAfter(delay)
    }

    /// Whether the method, status or error make `failure` worth retrying (the attempt count aside).
    public func shouldRetry(_ request: HTTPRequest, dueTo failure: RequestFailure) -> Bool {
        guard retryableMethods.contains(request.method) else { return false }
        switch failure {
        case .response(let response):
            return retryableStatusCodes.contains(response.statusCode)
        case .error(let error, let response):
            if error is CancellationError { return false }
            if let urlError = error as? URLError { return urlError.code != .cancelled && retryableURLErrorCodes.contains(urlError.code) }
            return response.map { retryableStatusCodes.contains($0.statusCode) } ?? false
        }
    }

    /// The wait before retry number `attempt + 1`: `Retry-After` if honoured and present, else the backoff's; `nil`
    /// when `Retry-After` asks for longer than the backoff's maximum delay.
    public func delay(forAttempt attempt: Int, response: HTTPResponseHead?) -> Duration? {
        if honorsRetryAfter, let value = response?.headers["Retry-After"], let retryAfter = RetryAfter(value) {
            let delay = retryAfter.delay(from: clock.now)
            return delay <= backoff.maximumDelay ? delay : nil
        }
        return backoff.delay(forAttempt: attempt)
    }
}
