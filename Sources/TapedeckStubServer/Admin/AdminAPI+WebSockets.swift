import Foundation
import TapedeckCassette

/// `GET /__admin/websockets`: the upgraded WebSocket connections and their frames, oldest first.
///
/// ```json
/// {"connections": [{"id": 1, "requestSequenceNumber": 3, "path": "/chat", "source": "stub", "stubID": "…",
///                   "startedAt": "2026-11-27T10:00:00Z", "open": false, "droppedFrameCount": 0,
///                   "frames": [{"from": "client", "at": 0.0021, "kind": "text", "size": 2, "text": "hi"},
///                              {"from": "server", "at": 0.0024, "kind": "binary", "size": 2, "base64": "AP8="},
///                              {"from": "client", "at": 0.0031, "kind": "close", "size": 2, "code": 1000}]}],
///  "droppedCount": 0}
/// ```
///
/// A payload longer than ``WebSocketJournal/payloadLimit`` bytes is cut there (`"truncated": true`); `size` is
/// always the whole payload's.
struct WebSocketJournalDocument: Encodable {
    struct Frame: Encodable {
        var from: String
        var at: Double
        var kind: String
        var size: Int
        var text: String?
        var base64: String?
        var code: UInt16?
        var reason: String?
        var truncated: Bool?

        init(_ frame: WebSocketJournal.Frame) {
            from = frame.direction.rawValue
            at = frame.offset
            size = frame.size
            var kept = 0
            switch frame.kind {
            case .text(let value):
                kind = "text"
                text = value
                kept = value.utf8.count
            case .binary(let data), .ping(let data), .pong(let data):
                kind = frame.kind.name
                base64 = data.base64EncodedString()
                kept = data.count
            case .close(let close):
                kind = "close"
                code = close.code.rawValue
                reason = close.reason.isEmpty ? nil : close.reason
                kept = frame.size
            }
            truncated = kept < frame.size ? true : nil
        }
    }

    struct Connection: Encodable {
        var id: Int
        var requestSequenceNumber: Int
        var path: String
        var query: String?
        var source: String
        var stubID: String?
        var startedAt: Date
        var open: Bool
        var droppedFrameCount: Int
        var frames: [Frame]

        init(_ connection: WebSocketJournal.Connection) {
            id = connection.id
            requestSequenceNumber = connection.requestSequenceNumber
            path = connection.path
            query = connection.query
            switch connection.source {
            case .stub(let stub):
                source = "stub"
                stubID = stub
            case .cassette: source = "cassette"
            case .proxy: source = "proxy"
            }
            startedAt = connection.startedAt
            open = connection.isOpen
            droppedFrameCount = connection.droppedFrameCount
            frames = connection.frames.map(Frame.init)
        }
    }

    var connections: [Connection]
    var droppedCount: Int

    init(_ journal: WebSocketJournal) {
        connections = journal.connections.map(Connection.init)
        droppedCount = journal.droppedCount
    }
}

extension WebSocketTranscript.Kind {
    /// `text`, `binary`, `ping`, `pong` or `close`.
    var name: String {
        switch self {
        case .text: return "text"
        case .binary: return "binary"
        case .ping: return "ping"
        case .pong: return "pong"
        case .close: return "close"
        }
    }
}
