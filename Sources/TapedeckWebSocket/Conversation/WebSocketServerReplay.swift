import Foundation
import TapedeckCassette

/// The server's side of a recorded conversation played to a real client, without I/O (the stub server drives it):
/// the server's recorded frames go out once the client's recorded frames before them have arrived, matched in
/// order by a ``WebSocketFrameMatcher``. A client message that matches nothing closes the connection with the
/// chosen code (1008 by default) and reports the near miss; a protocol violation closes with the RFC's code.
/// Pings and pongs the recording does not have next (a client's keepalive) are answered and let through, and a
/// recorded client pong is passed over when the client sends something else first (its pong may come later). Once
/// the server's close is out, a client message is dropped unread (RFC 6455 §1.4: it was sent before the client saw
/// the close) while the client's close is awaited.
///
/// Under a `ConversationFault` (a `WebSocketReplayScript`) the frames are the ones it leaves, then the connection
/// is dropped without a close frame (`Output.drop`), or the server stalls: nothing more goes out, and what the
/// client sends, its close included, goes unanswered.
///
/// ```swift
/// var replay = WebSocketServerReplay(frames: transcript.frames)
/// var outputs = replay.start()                       // the server's frames before the client's first
/// outputs = replay.received(.message(.text("hi")))   // the recorded answer, or a close with a near miss
/// ```
package struct WebSocketServerReplay: Sendable {
    /// What the connection does next.
    package enum Output: Sendable, Hashable {
        /// Send `frame`, recorded `at` seconds after the connection began (for recorded pacing).
        case send(WebSocketFrame, at: Double)
        /// The client sent what the recording does not have there: this near miss is reported (a close follows).
        case mismatch(WebSocketReplayMismatch)
        /// The recording ends without the server's close: it was cut off here (the connection is dropped).
        case cut(String)
        /// An injected drop: close the connection at once, without a close frame.
        case drop
        /// The conversation is over: close the socket.
        case end
    }

    private var cursor: WebSocketReplayCursor
    private let mismatchCode: WebSocketCloseCode
    private var closeSent = false
    private(set) var isOver = false

    /// A replay of `frames` comparing the client's with `matcher`, closing with `mismatchCode` on a near miss.
    package init(frames: [WebSocketTranscript.Frame], matcher: WebSocketFrameMatcher = WebSocketFrameMatcher(),
                 mismatchCode: WebSocketCloseCode = .policyViolation) {
        self.init(script: WebSocketReplayScript(frames: frames), matcher: matcher, mismatchCode: mismatchCode)
    }

    /// A replay of `script` (a recording, or what a fault leaves of it).
    package init(script: WebSocketReplayScript, matcher: WebSocketFrameMatcher = WebSocketFrameMatcher(),
                 mismatchCode: WebSocketCloseCode = .policyViolation) {
        cursor = WebSocketReplayCursor(script, matcher: matcher)
        self.mismatchCode = mismatchCode
    }

    /// The server's frames due as soon as the connection is open.
    package mutating func start() -> [Output] { dueFrames() }

    /// What to do after the client's `event`.
    package mutating func received(_ event: WebSocketEvent) -> [Output] {
        guard !isOver, !cursor.isStalled else { return [] }
        let kind = WebSocketTranscript.Kind(event)
        var outputs: [Output] = []
        if case .pong = kind {} else {
            while cursor.skipClientPong() { outputs += dueFrames() }
            if isOver { return outputs }
        }
        do {
            try cursor.clientSent(kind)
        } catch {
            switch event {
            case .ping(let payload):
                return outputs + (closeSent ? [] : [.send(WebSocketFrame(opcode: .pong, payload: payload), at: 0)])
            case .pong:
                return outputs
            case .close(let close):
                // The client leaves early: answered as any server answers a close.
                isOver = true
                return outputs + (closeSent ? [] : [.send(WebSocketClose(code: close.code).frame, at: 0)]) + [.end]
            case .message where closeSent:
                return outputs
            case .message:
                isOver = true
                let frame = WebSocketFrame.close(code: mismatchCode, reason: "no recorded message matches (frame \(error.frameIndex + 1))")
                return outputs + [.mismatch(error), .send(frame, at: 0), .end]
            }
        }
        if case .close = kind, closeSent {
            // The client's answer to the server's close: over.
            isOver = true
            return outputs + [.end]
        }
        return outputs + dueFrames()
    }

    /// A protocol violation by the client: a close with the RFC's code and reason, then the end.
    package mutating func failed(_ error: WebSocketProtocolError) -> [Output] {
        guard !isOver else { return [] }
        isOver = true
        return (closeSent ? [] : [.send(.close(code: error.closeCode, reason: error.reason), at: 0)]) + [.end]
    }

    private mutating func dueFrames() -> [Output] {
        var outputs: [Output] = []
        while let frame = cursor.nextServerFrame() {
            outputs.append(.send(frame.kind.serverFrame, at: frame.offset))
            if case .close = frame.kind { closeSent = true }
        }
        guard cursor.isAtEnd else { return outputs }
        switch cursor.runOut {
        case .asRecorded:
            isOver = true
            if !closeSent, let cut = WebSocketTranscript(frames: cursor.frames).cut { outputs.append(.cut(cut)) }
            outputs.append(.end)
        case .drop:
            isOver = true
            outputs.append(.drop)
        case .stall:
            break
        }
        return outputs
    }
}

extension WebSocketTranscript.Kind {
    /// The frame a server sends for this kind (whole, unfragmented).
    var serverFrame: WebSocketFrame {
        switch self {
        case .text(let text): return WebSocketFrame(opcode: .text, payload: Data(text.utf8))
        case .binary(let data): return WebSocketFrame(opcode: .binary, payload: data)
        case .ping(let data): return WebSocketFrame(opcode: .ping, payload: data)
        case .pong(let data): return WebSocketFrame(opcode: .pong, payload: data)
        case .close(let close): return close.frame
        }
    }
}
