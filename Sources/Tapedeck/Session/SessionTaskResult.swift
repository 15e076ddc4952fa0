import Foundation

/// How a task ended: the response, the serialized object, the raw body, and the error if any.
///
/// This is what AFNetworking hands a completion handler as `(response, responseObject, error)`.
public struct SessionTaskResult: Sendable {
    /// The response head, when one arrived.
    public var response: HTTPResponseHead?
    /// What the response serializer made of the body, or for a download task the file's final URL.
    public var value: (any Sendable)?
    /// The raw body of a data or upload task.
    public var data: Data?
    /// Where a download task's file ended up.
    public var fileURL: URL?
    /// The transport error (`URLError`) or the serialization error, if the task failed.
    public var error: (any Error)?
    /// Timings of the final transfer.
    public var metrics: TransferMetrics?

    /// Creates a result.
    public init(
        response: HTTPResponseHead? = nil, value: (any Sendable)? = nil, data: Data? = nil, fileURL: URL? = nil,
        error: (any Error)? = nil, metrics: TransferMetrics? = nil
    ) {
        self.response = response
        self.value = value
        self.data = data
        self.fileURL = fileURL
        self.error = error
        self.metrics = metrics
    }

    /// The serialized value, or the error the task failed with.
    public func get() throws -> (any Sendable)? {
        if let error { throw error }
        return value
    }
}
