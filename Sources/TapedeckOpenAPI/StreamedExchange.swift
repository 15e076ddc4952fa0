import Foundation
import OpenAPIRuntime
import TapedeckCore

/// One transfer whose response head is awaited by the caller while its body goes on arriving, for a client (such
/// as an OpenAPI one) that gets the head first and reads the body later as a sequence.
///
/// The transfer runs in a task of its own, because the body outlives the call that returns the head. Its body chunks
/// go into the ``ResponseBodyChunks`` that ``start(_:on:)`` returns beside the exchange, which does not keep it; the
/// transfer is cancelled when the task waiting for the head is cancelled, when the task reading the body is, or when
/// the body sequence is dropped unread.
///
/// `HTTPTransport` delivers body chunks through a callback that must not block, so the transfer cannot be paused for
/// a slow reader: chunks the reader has not taken yet wait in memory.
final class StreamedExchange: Sendable {
    private let sink: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.Continuation
    private let state = Locked(State())

    private struct State {
        var head: HeadState = .waiting(nil)
        var transfer: Task<Void, Never>?
        var cancelRequested = false
    }

    private enum HeadState {
        case waiting(CheckedContinuation<HTTPResponseHead, any Error>?)
        case arrived(HTTPResponseHead)
        case failed(any Error)
        case delivered
    }

    private init(sink: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.Continuation) {
        self.sink = sink
    }

    /// Starts `request` (whose ``TapedeckCore/HTTPRequest/responseBody`` should be ``ResponseBodyDestination/stream``)
    /// on `transport`, and returns the exchange with the response body's chunks, which end when the transfer completes
    /// and throw the transfer's error.
    static func start(
        _ request: TapedeckCore.HTTPRequest, on transport: any HTTPTransport
    ) -> (StreamedExchange, ResponseBodyChunks) {
        let (chunks, sink) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()
        let exchange = StreamedExchange(sink: sink)
        exchange.sink.onTermination = { [weak exchange] termination in
            if case .cancelled = termination { exchange?.cancel() }
        }
        let transfer = Task { [exchange] in
            do {
                let response = try await transport.send(request) { event in exchange.handle(event) }
                exchange.complete(with: response)
            } catch {
                exchange.fail(with: error)
            }
        }
        let cancelledAlready = exchange.state.withLock { state in
            state.transfer = transfer
            return state.cancelRequested
        }
        if cancelledAlready { transfer.cancel() }
        return (exchange, ResponseBodyChunks(chunks))
    }

    /// The response head, once it has arrived.
    ///
    /// - Throws: the transfer's error when it fails before the head, such as the transport's `URLError.cancelled`
    ///   after the calling task is cancelled.
    func head() async throws -> HTTPResponseHead {
        try await withTaskCancellationHandler {
            try await state.waitThrowing { state, continuation in
                switch state.head {
                case .waiting:
                    state.head = .waiting(continuation)
                    return nil
                case .arrived(let head):
                    state.head = .delivered
                    return .success(head)
                case .failed(let error):
                    return .failure(error)
                case .delivered:
                    preconditionFailure("StreamedExchange.head() is awaited once")
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Cancels the transfer; its error (`URLError.cancelled` from Tapedeck's transports) ends the body.
    func cancel() {
        let transfer = state.withLock { state in
            state.cancelRequested = true
            return state.transfer
        }
        transfer?.cancel()
    }

    private func handle(_ event: HTTPTransportEvent) {
        switch event {
        case .responseHead(let head):
            arrive(head)
        case .bodyChunk(let data):
            sink.yield(HTTPBody.ByteChunk(data))
        case .uploadProgress, .downloadProgress, .completed:
            break
        }
    }

    /// The transfer ended well: a transport that reported no head, or kept the body in memory instead of streaming
    /// it as events, still gets its head and body through.
    private func complete(with response: HTTPResponse) {
        arrive(response.head)
        if case .data(let data) = response.body, !data.isEmpty {
            sink.yield(HTTPBody.ByteChunk(data))
        }
        sink.finish()
    }

    private func fail(with error: any Error) {
        let waiting = state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            guard case .waiting(let continuation) = state.head else { return nil }
            state.head = .failed(error)
            return continuation
        }
        waiting?.resume(throwing: error)
        sink.finish(throwing: error)
    }

    private func arrive(_ head: HTTPResponseHead) {
        let waiting = state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            guard case .waiting(let continuation) = state.head else { return nil }
            state.head = continuation == nil ? .arrived(head) : .delivered
            return continuation
        }
        waiting?.resume(returning: head)
    }
}
