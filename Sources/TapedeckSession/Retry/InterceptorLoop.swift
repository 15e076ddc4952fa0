/// Runs one request through an interceptor: adapt, send, and on failure ask the retrier, waiting on ``clock`` for a
/// ``RetryDecision/retryAfter(_:)``. This is the loop a session runs around its transport, usable on its own.
///
/// Each attempt adapts the *original* request again (so an adapter can apply a refreshed credential); the retrier
/// sees the request as it was sent. A response is a failure when ``isFailure`` says so (status 400 and above by
/// default); when no retry is decided, a failed response is returned as it is and an error is thrown.
///
/// ```swift
/// let loop = InterceptorLoop(interceptor: Interceptor(interceptors: [authentication, RetryPolicy()]))
/// let response = try await loop.send(HTTPRequest(url: url)) { try await transport.send($0) }
/// ```
public struct InterceptorLoop: Sendable {
    /// Adapts each attempt and decides retries.
    public var interceptor: any RequestInterceptor
    /// What retry delays are waited on.
    public var clock: any WallClock
    /// Whether a response counts as a failure the retrier is asked about.
    public var isFailure: @Sendable (HTTPResponse) -> Bool
    /// A backstop against a retrier that never stops: at most this many sends. Default 16.
    public var maximumAttempts: Int
    /// The session task's identifier, passed to adapters.
    public var taskIdentifier: Int?

    /// The default failure rule: a status of 400 and above.
    @usableFromInline static func isFailureStatus(_ statusCode: Int) -> Bool { statusCode >= 400 }

    /// Creates a loop.
    public init(
        interceptor: any RequestInterceptor,
        clock: any WallClock = SystemWallClock(),
        maximumAttempts: Int = 16,
        taskIdentifier: Int? = nil,
        isFailure: @escaping @Sendable (HTTPResponse) -> Bool = { isFailureStatus($0.statusCode) }
    ) {
        self.interceptor = interceptor
        self.clock = clock
        self.maximumAttempts = maximumAttempts
        self.taskIdentifier = taskIdentifier
        self.isFailure = isFailure
    }

    /// Sends `request` with `send` until it succeeds or no retry is decided.
    ///
    /// - Throws: an adapter's error, the last error `send` threw, a retrier's ``RetryDecision/doNotRetryWithError(_:)``
    ///   error, or `CancellationError` when cancelled while waiting.
    public func send(
        _ request: HTTPRequest,
        using send: (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            let adapted = try await interceptor.adapt(request, for: RequestAdapterContext(attempt: attempt, taskIdentifier: taskIdentifier))
            let failure: RequestFailure
            do {
                let response = try await send(adapted)
                guard isFailure(response) else { return response }
                failure = .response(response)
            } catch {
                failure = .error(error)
            }
            let decision = attempt + 1 < maximumAttempts
                ? await interceptor.retry(adapted, dueTo: failure, attempt: attempt)
                : .doNotRetry
            switch decision {
            case .retry:
                try Task.checkCancellation()
            case .retryAfter(let delay):
                try await clock.sleep(for: delay)
            case .doNotRetry:
                switch failure {
                case .response(let response): return response
                case .error(let error, _): throw error
                }
            case .doNotRetryWithError(let error):
                throw error
            }
            attempt += 1
        }
    }
}
