/// Several adapters and retriers as one interceptor (Alamofire's `Interceptor`). Adapters run in order, each adapting
/// the previous one's request; the first to throw fails the request. Retriers are asked in order and the first decision
/// that is not ``RetryDecision/doNotRetry`` wins (a ``RetryDecision/doNotRetryWithError(_:)`` ends the search too).
///
/// ```swift
/// let interceptor = Interceptor(
///     adapters: [Adapter { request, _ in var request = request; request.headers["X-Client"] = "demo"; return request }],
///     retriers: [authentication, RetryPolicy()]
/// )
/// ```
public struct Interceptor: RequestInterceptor {
    /// The adapters, in the order they run.
    public var adapters: [any RequestAdapter]
    /// The retriers, in the order they are asked.
    public var retriers: [any RequestRetrier]

    /// Composes adapters and retriers.
    public init(adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = []) {
        self.adapters = adapters
        self.retriers = retriers
    }

    /// Composes interceptors: each is both an adapter and a retrier, in the order given.
    public init(interceptors: [any RequestInterceptor]) {
        self.init(adapters: interceptors, retriers: interceptors)
    }

    /// One adapter and one retrier.
    public init(adapter: any RequestAdapter, retrier: any RequestRetrier) {
        self.init(adapters: [adapter], retriers: [retrier])
    }

    public func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
        var request = request
        for adapter in adapters { request = try await adapter.adapt(request, for: context) }
        return request
    }

    public func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision {
        for retrier in retriers {
            let decision = await retrier.retry(request, dueTo: failure, attempt: attempt)
            if case .doNotRetry = decision { continue }
            return decision
        }
        return .doNotRetry
    }
}

/// An adapter made of a closure.
///
/// ```swift
/// let adapter = Adapter { request, context in
///     var request = request
///     request.headers["X-Attempt"] = String(context.attempt)
///     return request
/// }
/// ```
public struct Adapter: RequestInterceptor {
    private let body: @Sendable (HTTPRequest, RequestAdapterContext) async throws -> HTTPRequest

    /// Creates an adapter that calls `body`.
    public init(_ body: @escaping @Sendable (HTTPRequest, RequestAdapterContext) async throws -> HTTPRequest) { self.body = body }

    public func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
        try await body(request, context)
    }
}

/// A retrier made of a closure.
///
/// ```swift
/// let retrier = Retrier { _, failure, attempt in
///     failure.response?.statusCode == 409 && attempt < 1 ? .retry : .doNotRetry
/// }
/// ```
public struct Retrier: RequestInterceptor {
    private let body: @Sendable (HTTPRequest, RequestFailure, Int) async -> RetryDecision

    /// Creates a retrier that calls `body` with the request, the failure and the attempt.
    public init(_ body: @escaping @Sendable (HTTPRequest, RequestFailure, Int) async -> RetryDecision) { self.body = body }

    public func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision {
        await body(request, failure, attempt)
    }
}
