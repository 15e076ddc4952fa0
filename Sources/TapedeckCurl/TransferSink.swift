import Foundation
import TapedeckCore

/// Where a transfer's outcome and events go: the caller's continuation, resumed once with the response or the
/// error, and the caller's event handler, if it gave one.
///
/// A successful transfer resumes the caller first and only then hands ``HTTPTransportEvent/completed(_:)`` to the
/// handler, on the loop thread, while the caller's thread wakes up (tens of microseconds on a virtual machine): work
/// a handler does on completion, such as committing a recorded interaction, overlaps that wake-up.
/// ``CurlTransport/send(_:onEvent:)`` returns only once the handler is done (``CompletionHandOff``).
final class TransferSink: Sendable {
    private let continuation: CheckedContinuation<HTTPResponse, any Error>
    private let handler: HTTPEventHandler?
    /// The caller's wait for the handler's `completed`, when there is a handler.
    let handOff: CompletionHandOff?
    /// Set once the continuation has been resumed.
    private let resumed = Locked(false)

    /// The consumer's window on a streamed body, when it keeps one.
    let window: ReceiveWindow?

    init(_ continuation: CheckedContinuation<HTTPResponse, any Error>, handler: HTTPEventHandler?, window: ReceiveWindow? = nil) {
        self.continuation = continuation
        self.handler = handler
        self.window = window
        handOff = handler == nil ? nil : CompletionHandOff()
    }

    /// Whether anybody listens to events other than the outcome (progress need not be computed otherwise).
    var wantsEvents: Bool { handler != nil }

    /// Delivers an event; `completed` resumes the caller.
    func yield(_ event: HTTPTransportEvent) {
        guard case .completed(let response) = event else {
            handler?(event)
            return
        }
        guard claim() else { return }
        continuation.resume(returning: response)
        if let handler, let handOff {
            handler(event)
            handOff.markDone()
        }
    }

    /// Ends the transfer with `error`.
    func finish(throwing error: any Error) {
        if claim() { continuation.resume(throwing: error) }
    }

    private func claim() -> Bool {
        resumed.withLock { resumed in
            defer { resumed = true }
            return !resumed
        }
    }
}
