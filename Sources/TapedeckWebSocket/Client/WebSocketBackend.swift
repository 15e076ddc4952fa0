/// What a ``WebSocket`` runs on: a live connection (``CurlWebSocketEngine``) or a recorded conversation played
/// back (``ReplayedWebSocketBackend``). The user's calls go to it; it feeds the socket's messages.
protocol WebSocketBackend: Sendable {
    /// Sends a frame (a message or a ping); throws once the connection is closing or over.
    func send(_ frame: WebSocketFrame) async throws
    /// Sends a close unless one was sent, and waits for the connection to end.
    func close(_ close: WebSocketClose) async -> WebSocketEnding
    /// Waits for the connection to end.
    func ending() async -> WebSocketEnding
    /// How the connection ended, or nil while it is open.
    var currentEnding: WebSocketEnding? { get }
    /// The socket was dropped while open: close without waiting.
    func abandon()
}

extension CurlWebSocketEngine: WebSocketBackend {}
