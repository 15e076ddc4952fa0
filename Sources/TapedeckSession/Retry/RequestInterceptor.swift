/// Both an adapter and a retrier (Alamofire's `RequestInterceptor`). Each side defaults to doing nothing, so a type
/// implements only the one it needs.
///
/// ```swift
/// struct Tracing: RequestInterceptor {
///     func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
///         var request = request
///         request.headers["X-Attempt"] = String(context.attempt)
///         return request
///     }
/// }
/// ```
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Sends the request unchanged.
    public func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest { request }

    /// Never retries.
    public func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision { .doNotRetry }
}
