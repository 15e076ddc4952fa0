/// How large a peer's frames and messages may be. A frame is refused as soon as its header announces more than
/// ``maximumFrameSize`` bytes, and a message as soon as its fragments pass ``maximumMessageSize``, so neither is ever
/// buffered; both close with 1009.
///
/// ```swift
/// let parser = WebSocketParser(role: .client, limits: WebSocketLimits(maximumFrameSize: 1 << 20, maximumMessageSize: 4 << 20))
/// ```
public struct WebSocketLimits: Sendable, Hashable {
    /// The largest payload of one frame, in bytes.
    public var maximumFrameSize: Int
    /// The largest message (all of its fragments together), in bytes.
    public var maximumMessageSize: Int

    /// Limits; the defaults are 16 MiB a frame and 64 MiB a message.
    public init(maximumFrameSize: Int = 16 << 20, maximumMessageSize: Int = 64 << 20) {
        self.maximumFrameSize = max(0, maximumFrameSize)
        self.maximumMessageSize = max(0, maximumMessageSize)
    }
}

/// Which end of the connection an endpoint is: it decides which frames must be masked (RFC 6455 §5.1).
public enum WebSocketRole: Sendable, Hashable {
    /// The client masks what it sends and refuses masked frames.
    case client
    /// The server sends unmasked frames and refuses unmasked ones.
    case server

    /// Whether the frames this endpoint receives must be masked.
    public var expectsMaskedFrames: Bool { self == .server }
}
