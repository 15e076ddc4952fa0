import Foundation
import TapedeckCassette
import TapedeckCore

/// The WebSocket connections a stub server upgraded, oldest first, with their frames as they passed: who sent each,
/// its kind, its payload (the first ``payloadLimit`` bytes) and full size, its time since the upgrade, and a close's
/// code and reason. Bounded: at most `capacity` connections (the oldest dropped first) and ``frameLimit`` frames each
/// (later ones only counted), so a long stream cannot grow it without bound.
///
/// ```swift
/// let server = try StubServer()
/// server.webSocket("/chat", WebSocketStub(rules: [.init(.contains("hi"), [.send(.text("hello"))])]))
/// // … a client connects to /chat and sends "hi" …
/// server.webSocketJournal.connections[0].frames.map(\.summary)   // ["client text \"hi\"", "server text \"hello\""]
/// ```
public final class WebSocketJournal: Sendable {
    /// What answered a connection's upgrade.
    public enum Source: Sendable, Hashable {
        /// A ``WebSocketStub`` (its stub's ID).
        case stub(Stub.ID)
        /// A recorded conversation, played from a cassette.
        case cassette
        /// The recording proxy, relaying to its upstream.
        case proxy
    }

    /// One frame as the journal keeps it.
    public struct Frame: Sendable, Hashable {
        /// Who sent it.
        public var direction: WebSocketTranscript.Direction
        /// What it carried, with a text or binary payload (or a ping's or pong's) cut to ``WebSocketJournal/payloadLimit`` bytes.
        public var kind: WebSocketTranscript.Kind
        /// The payload's full size in bytes (a close's: its code and reason).
        public var size: Int
        /// Seconds from the upgrade to this frame.
        public var offset: Double

        /// `client text "hi"`, `server close 1000`, for reports.
        public var summary: String { "\(direction) \(kind.summary)" }
    }

    /// One upgraded connection.
    public struct Connection: Sendable, Hashable {
        /// Its number, from 1, in the order of the upgrades.
        public var id: Int
        /// The upgrade request's ``RecordedRequest/sequenceNumber`` in the server's ``RequestJournal``.
        public var requestSequenceNumber: Int
        /// The upgrade request's path, as sent.
        public var path: String
        /// The upgrade request's raw query, if any.
        public var query: String?
        /// What answered the upgrade.
        public var source: Source
        /// When the connection was upgraded.
        public var startedAt: Date
        /// The frames, in the order they passed (the first ``WebSocketJournal/frameLimit``).
        public var frames: [Frame]
        /// How many frames passed after the first ``WebSocketJournal/frameLimit``.
        public var droppedFrameCount: Int
        /// Whether the connection is still open.
        public var isOpen: Bool
    }

    /// The bytes of a payload kept for each frame.
    public static let payloadLimit = 4096
    /// The frames kept for each connection.
    public static let frameLimit = 1000

    private struct State {
        var connections: [Connection] = []
        var starts: [Int: ContinuousClock.Instant] = [:]
        var nextID = 1
        var dropped = 0
    }

    private let state = Locked(State())
    /// Most connections kept; older ones are dropped first.
    public let capacity: Int

    /// Creates a journal keeping at most `capacity` connections.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Every kept connection, oldest first.
    public var connections: [Connection] { state.withLock { $0.connections } }

    /// How many connections were dropped because the journal was full.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Forgets every connection; numbering continues, and open ones stop being noted.
    public func removeAll() {
        state.withLock { state in
            state.connections.removeAll()
            state.starts.removeAll()
            state.dropped = 0
        }
    }

    /// Notes a connection upgraded by `request`: what notes its frames.
    func open(_ request: RecordedRequest, source: Source) -> Entry {
        let id = state.withLock { state -> Int in
            let id = state.nextID
            state.nextID += 1
            if state.connections.count == capacity {
                let oldest = state.connections.removeFirst()
                state.starts.removeValue(forKey: oldest.id)
                state.dropped += 1
            }
            state.connections.append(Connection(
                id: id, requestSequenceNumber: request.sequenceNumber, path: request.path, query: request.query, source: source,
                startedAt: Date(), frames: [], droppedFrameCount: 0, isOpen: true))
            state.starts[id] = ContinuousClock.now
            return id
        }
        return Entry(journal: self, id: id)
    }

    /// Notes one connection's frames, from the thread that serves it.
    struct Entry: Sendable {
        let journal: WebSocketJournal
        let id: Int

        /// Notes a frame `direction` sent, now.
        func note(_ kind: WebSocketTranscript.Kind, from direction: WebSocketTranscript.Direction) {
            let (kept, size) = Self.cut(kind)
            journal.state.withLock { state in
                guard let start = state.starts[id], let index = state.connections.lastIndex(where: { $0.id == id }) else { return }
                guard state.connections[index].frames.count < WebSocketJournal.frameLimit else {
                    state.connections[index].droppedFrameCount += 1
                    return
                }
                let elapsed = ContinuousClock.now - start
                let offset = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                state.connections[index].frames.append(Frame(direction: direction, kind: kept, size: size, offset: offset))
            }
        }

        /// Notes that the connection is over.
        func close() {
            journal.state.withLock { state in
                guard let index = state.connections.lastIndex(where: { $0.id == id }) else { return }
                state.connections[index].isOpen = false
                state.starts.removeValue(forKey: id)
            }
        }

        /// The kind with its payload cut to the limit, and the payload's full size.
        static func cut(_ kind: WebSocketTranscript.Kind) -> (WebSocketTranscript.Kind, Int) {
            let limit = WebSocketJournal.payloadLimit
            switch kind {
            case .text(let text):
                let bytes = text.utf8.count
                guard bytes > limit else { return (kind, bytes) }
                // Cut at a scalar boundary at or before the limit.
                var kept = String.UnicodeScalarView()
                var count = 0
                for scalar in text.unicodeScalars {
                    count += UTF8.width(scalar)
                    if count > limit { break }
                    kept.append(scalar)
                }
                return (.text(String(kept)), bytes)
            // Copied: a prefix of Data shares (and keeps alive) the whole message's bytes.
            case .binary(let data): return (.binary(data.count > limit ? Data(Array(data.prefix(limit))) : data), data.count)
            case .ping(let data): return (.ping(data), data.count)
            case .pong(let data): return (.pong(data), data.count)
            case .close(let close): return (kind, close.reason.utf8.count + (close.code == .noStatusReceived ? 0 : 2))
            }
        }
    }
}
