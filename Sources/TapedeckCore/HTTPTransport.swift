import Foundation

/// The one seam between Tapedeck's client stack and the network: a request in, a response out, with the transfer's
/// events on the way to whoever asks for them.
///
/// Every mode is a value of a type that conforms: the live `CurlTransport()`, a cassette replayer, or a stub
/// server's `server.transport()`. A transport has exactly one way in, ``send(_:onEvent:)``, which every caller
/// uses (the client stack, adapters, tests), so whatever makes a transport fast serves everybody. The conveniences
/// ``send(_:)`` and ``execute(_:)`` (an event stream) are built on it.
///
/// ```swift
/// let transport: any HTTPTransport = CurlTransport()
/// let response = try await transport.send(request) { event in
///     if case .downloadProgress(let progress) = event { print(progress.fractionCompleted ?? 0) }
/// }
/// print(response.statusCode)
/// ```
public protocol HTTPTransport: Sendable {
    /// Runs `request` to completion and returns the response.
    ///
    /// - Parameters:
    ///   - request: what to send.
    ///   - onEvent: receives the transfer's events in order: the response head, upload and download progress, body
    ///     chunks for ``ResponseBodyDestination/stream``, and ``HTTPTransportEvent/completed(_:)`` last, all before
    ///     this method returns. It may run on the transport's own thread while the caller waits, so keep it short
    ///     and non-blocking. `nil` when only the response matters: no event is then delivered at all.
    /// - Throws: `URLError` (or the transport's own error type, such as a cassette's); `URLError.cancelled` when
    ///   the calling task is cancelled, which cancels the transfer.
    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse

    /// The executor the transport resumes its callers on, if it has one (the live `CurlTransport`'s event loop), so
    /// that a caller that waits for one transfer after another can run there and be resumed with no thread hop
    /// (`withTaskExecutorPreference`); `nil` (the default) for a transport that answers in its caller's context.
    /// A wrapper should forward its base's: one that does not costs each request a thread hop, nothing more. (It
    /// cannot be announced during ``send(_:onEvent:)`` as the recording's clock is: the executor is chosen before
    /// the request is sent.)
    var preferredExecutor: (any TaskExecutor)? { get }

    /// The time its answers belong to, when that is not now: a cassette replaying returns the recording's clock, so
    /// that a session running over it (``RecordedTime``) judges cache freshness, cookie expiry and `Retry-After` as
    /// the live run did. `nil` (the default): the system's time.
    ///
    /// A wrapper that does not forward it keeps the recording's time all the same: the replaying transport announces
    /// its clock with each answer to the session that sent the request (``RecordedTime/announce(_:)``), which judges
    /// by it from then on. Forwarding it still helps the first request, which is judged before any answer.
    var recordedTime: (any WallClock)? { get }
}

/// Receives the events of one transfer (see ``HTTPTransport/send(_:onEvent:)``).
public typealias HTTPEventHandler = @Sendable (HTTPTransportEvent) -> Void

/// The events of one transfer, ending in ``HTTPTransportEvent/completed(_:)`` or a thrown error.
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
    /// No executor of its own: callers run wherever they are.
    public var preferredExecutor: (any TaskExecutor)? { nil }

    /// Answers that belong to now.
    public var recordedTime: (any WallClock)? { nil }

    /// Runs `request` to completion and returns the response, with no events.
    ///
    /// ```swift
    /// let response = try await CurlTransport().send(HTTPRequest(url: url))
    /// print(response.statusCode, response.data?.count ?? 0)
    /// ```
    ///
    /// - Throws: `URLError`; `URLError.cancelled` when the calling task is cancelled.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await send(request, onEvent: nil)
    }

    /// Starts `request` in a task of its own and returns its events as a stream that ends after
    /// ``HTTPTransportEvent/completed(_:)`` or throws the transfer's error. Cancelling the task that iterates the
    /// stream (or dropping the stream) cancels the transfer.
    ///
    /// ```swift
    /// for try await event in transport.execute(request) {
    ///     if case .completed(let response) = event { print(response.statusCode) }
    /// }
    /// ```
    public func execute(_ request: HTTPRequest) -> HTTPEventStream {
        let (stream, continuation) = HTTPEventStream.makeStream()
        let task = Task {
            do {
                _ = try await send(request, onEvent: { continuation.yield($0) })
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }
}
