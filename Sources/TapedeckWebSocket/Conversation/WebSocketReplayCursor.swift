import TapedeckCassette

/// Where a replay is in a recorded conversation, without I/O: the server's frames come out in order up to the next
/// frame the client sent, and each frame the client sends now must be that recorded frame (as `matcher` compares).
struct WebSocketReplayCursor: Sendable {
    let frames: [WebSocketConversation.Frame]
    let matcher: WebSocketFrameMatcher
    /// What the server does once the frames run out.
    let runOut: WebSocketReplayScript.RunOut
    private(set) var index = 0

    init(_ script: WebSocketReplayScript, matcher: WebSocketFrameMatcher = WebSocketFrameMatcher()) {
        frames = script.frames
        runOut = script.runOut
        self.matcher = matcher
    }

    /// Whether every recorded frame was replayed.
    var isAtEnd: Bool { index == frames.count }

    /// Whether the server has stalled (an injected stall, every frame before it played): it answers nothing more,
    /// and what the client sends is taken and dropped.
    var isStalled: Bool { isAtEnd && runOut == .stall }

    /// The next recorded frame if the server sent it, which the replay now delivers.
    mutating func nextServerFrame() -> WebSocketConversation.Frame? {
        guard index < frames.count, frames[index].direction == .server else { return nil }
        defer { index += 1 }
        return frames[index]
    }

    /// Passes over the recorded client pong next, if that is what comes: an automatic answer whose moment a live
    /// client does not control. True when one was passed.
    mutating func skipClientPong() -> Bool {
        guard index < frames.count, frames[index].direction == .client, case .pong = frames[index].kind else { return false }
        index += 1
        return true
    }

    /// Matches a frame the client sends with the next recorded one, which must be the client's and carry the same.
    mutating func clientSent(_ kind: WebSocketConversation.Kind) throws(WebSocketReplayMismatch) {
        guard index < frames.count, frames[index].direction == .client else {
            throw WebSocketReplayMismatch(
                frameIndex: index, frameCount: frames.count, sent: kind.summary,
                expected: index < frames.count ? frames[index].kind.summary : nil)
        }
        guard matcher.matches(kind, recorded: frames[index].kind) else {
            throw WebSocketReplayMismatch(frameIndex: index, frameCount: frames.count, sent: kind.summary, expected: frames[index].kind.summary)
        }
        index += 1
    }
}

/// A frame the client sent during a replay that is not the one the recording has next: a near miss.
public struct WebSocketReplayMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    /// The recorded frame the replay was at (0-based), and how many the recording has.
    public var frameIndex: Int
    /// How many frames the recorded conversation has.
    public var frameCount: Int
    /// What the client sent.
    public var sent: String
    /// What the recording has at that place: a client frame that differs, the server's next frame (the client sent
    /// before the server's frames were delivered), or nil when the recording has nothing left.
    public var expected: String?

    /// A mismatch at `frameIndex` of `frameCount` recorded frames.
    public init(frameIndex: Int, frameCount: Int, sent: String, expected: String?) {
        self.frameIndex = frameIndex
        self.frameCount = frameCount
        self.sent = sent
        self.expected = expected
    }

    /// How messages, logs and test failures print it.
    public var description: String {
        guard let expected else {
            return "WebSocket replay: the client sent \(sent) after the recording's last frame (\(frameCount) frames)"
        }
        return "WebSocket replay: the client sent \(sent) where the recording has \(expected) (frame \(frameIndex + 1) of \(frameCount))"
    }
}
