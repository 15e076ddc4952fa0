/// Changes a request just before each time it is sent (Alamofire's `RequestAdapter`): adds a token, a signature, a
/// header. Throwing fails the request with that error without sending it.
///
/// ```swift
/// struct APIKeyAdapter: RequestAdapter {
///     func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
///         var request = request
///         request.headers["X-Api-Key"] = "k-123"
///         return request
///     }
/// }
/// ```
public protocol RequestAdapter: Sendable {
    /// The request to send for this attempt.
    func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest
}

/// What an adapter knows about the send it adapts for.
public struct RequestAdapterContext: Hashable, Sendable {
    /// 0 for the first send, 1 for the first retry, and so on.
    public var attempt: Int
    /// The session task's identifier, when a session task is sending.
    public var taskIdentifier: Int?

    /// Creates a context.
    public init(attempt: Int = 0, taskIdentifier: Int? = nil) {
        self.attempt = attempt
        self.taskIdentifier = taskIdentifier
    }
}
