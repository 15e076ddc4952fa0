import Foundation
import Synchronization
import TapedeckCore

/// Where a transfer's events go: the event stream of ``CurlTransport/execute(_:)``, or, for
/// ``CurlTransport/send(_:)``, one continuation resumed once with the final response (no stream, and no consumer
/// wake-up per event).
final class TransferSink: Sendable {
    private enum Target: Sendable {
        case stream(HTTPEventStream.Continuation)
        case response(CheckedContinuation<HTTPResponse, any Error>, url: URL, handOff: CompletionHandOff?)
    }

    private let target: Target
    /// Set once a `.response` target has been resumed.
    private let resumed = Mutex(false)

    /// Events go to a stream.
    init(_ continuation: HTTPEventStream.Continuation) {
        target = .stream(continuation)
    }

    /// Only the outcome goes to `continuation`; `handOff`'s work runs once it has been resumed with a response.
    init(response continuation: CheckedContinuation<HTTPResponse, any Error>, url: URL, handOff: CompletionHandOff? = nil) {
        target = .response(continuation, url: url, handOff: handOff)
    }

    /// Delivers an event (a response target keeps only `completed`).
    func yield(_ event: HTTPTransportEvent) {
        switch target {
        case .stream(let continuation):
            continuation.yield(event)
        case .response(let continuation, _, let handOff):
            guard case .completed(let response) = event, claim() else { return }
            if let handOff {
                handOff.run(response) { continuation.resume(returning: response) }
            } else {
                continuation.resume(returning: response)
            }
        }
    }

    /// Ends the transfer normally (after `completed`).
    func finish() {
        switch target {
        case .stream(let continuation):
            continuation.finish()
        case .response(let continuation, let url, _):
            if claim() { continuation.resume(throwing: URLError(.cancelled, failingURL: url, reason: "the transfer ended without a response")) }
        }
    }

    /// Ends the transfer with `error`.
    func finish(throwing error: any Error) {
        switch target {
        case .stream(let continuation):
            continuation.finish(throwing: error)
        case .response(let continuation, _, _):
            if claim() { continuation.resume(throwing: error) }
        }
    }

    private func claim() -> Bool {
        resumed.withLock { resumed in
            defer { resumed = true }
            return !resumed
        }
    }
}
