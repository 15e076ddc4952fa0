import Foundation

/// The one seam between Tapedeck's client stack and the network: a request in, a stream of events out.
///
/// Every mode is a value of a type that conforms: the live `CurlTransport()`, a cassette replayer, or a stub
/// server's `server.transport()`. The stream yields ``HTTPTransportEvent/responseHead(_:)`` as soon as the
/// headers arrive, then body chunks (for ``ResponseBodyDestination/stream``) and progress, and ends with exactly
/// one ``HTTPTransportEvent/completed(_:)``, or throws a `URLError`. Cancelling the task that iterates the stream
/// (or dropping the iterator) cancels the transfer.
///
/// ```swift
/// let transport: any HTTPTransport = CurlTransport()
/// for try await event in transport.execute(request) {
///     if case .downloadProgress(let progress) = event { print(progress.fractionCompleted ?? 0) }
///     if case .completed(let response) = event { print(response.statusCode) }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Starts `request` and returns its events.
    func execute(_ request: HTTPRequest) -> HTTPEventStream

    /// Runs `request` to completion and returns the response, ignoring intermediate events. The default iterates
    /// ``execute(_:)``; a transport may answer more directly.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The events of one transfer, ending in ``HTTPTransportEvent/completed(_:)`` or a thrown `URLError`.
public typealias HTTPEventStream = AsyncThrowingStream<HTTPTransportEvent, any Error>

/// Something that happened during a transfer.
public enum HTTPTransportEvent: Sendable {
    /// The final response's status line and headers (redirects and 1xx responses are not reported).
    case responseHead(HTTPResponseHead)
    /// A piece of the body, when the request asked for ``ResponseBodyDestination/stream``.
    case bodyChunk(Data)
    /// Bytes of the request body sent so far.
    case uploadProgress(TransferProgress)
    /// Bytes of the response body received so far.
    case downloadProgress(TransferProgress)
    /// The transfer finished; this is always the last event.
    case completed(HTTPResponse)
}

extension HTTPTransport {
    /// Runs `request` to completion and returns the response, ignoring intermediate events.
    ///
    /// ```swift
    /// let response = try await CurlTransport().send(HTTPRequest(url: url))
    /// print(response.statusCode, response.data?.count ?? 0)
    /// ```
    ///
    /// - Throws: `URLError`; `URLError.cancelled` when the calling task is cancelled.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await send(request, onEvent: { _ in })
    }

    /// Runs `request` to completion, passing each event to `onEvent` as it happens.
    public func send(
        _ request: HTTPRequest,
        onEvent: (HTTPTransportEvent) throws -> Void
    ) async throws -> HTTPResponse {
        for try await event in execute(request) {
            try onEvent(event)
            if case .completed(let response) = event {
                return response
            }
        }
        throw URLError(.cancelled, failingURL: request.url, reason: "the transfer was cancelled")
    }
}
