import Foundation
import TapedeckCore

/// Collects the events a transport delivers to ``handler``, from whatever thread delivers them, for a test to read
/// once the request has returned.
///
/// ```swift
/// let log = TransportEventLog()
/// let response = try await transport.send(request, onEvent: log.handler)
/// #expect(log.bodyChunks.reduce(Data(), +) == Data("abc".utf8))
/// ```
public final class TransportEventLog: Sendable {
    private let recorded = Locked<[HTTPTransportEvent]>([])

    public init() {}

    /// Pass this as the `onEvent` of `HTTPTransport.send(_:onEvent:)`.
    public var handler: HTTPEventHandler {
        { [self] event in recorded.withLock { $0.append(event) } }
    }

    /// Every event so far, in order.
    public var events: [HTTPTransportEvent] { recorded.withLock { $0 } }

    /// The body chunks so far, in order.
    public var bodyChunks: [Data] {
        events.compactMap { if case .bodyChunk(let chunk) = $0 { chunk } else { nil } }
    }

    /// The response heads so far.
    public var heads: [HTTPResponseHead] {
        events.compactMap { if case .responseHead(let head) = $0 { head } else { nil } }
    }
}
