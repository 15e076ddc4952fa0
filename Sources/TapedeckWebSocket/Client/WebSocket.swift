import Foundation
import TapedeckCore

/// A live WebSocket client connection (RFC 6455) over libcurl: TLS, proxies and pins as for requests, the framing
/// Tapedeck's own. Messages arrive as an `AsyncSequence`; pings are answered, and a close from the server is
/// answered and ends the sequence.
///
/// ```swift
/// let socket = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:8765/chat")!)
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     print(message)
///     if case .text("bye") = message { break }
/// }
/// let ending = await socket.close()   // .closed(close 1000)
/// ```
public final class WebSocket: Sendable {
    /// The URL connected to.
    public let url: URL
    /// The headers the upgrade request carried (the handshake's and the options').
    public let requestHeaders: HTTPHeaders
    /// The server's `101` answer.
    public let response: WebSocketUpgradeResponseHead
    /// The subprotocol and extensions agreed.
    public let negotiation: WebSocketNegotiation
    /// The server's messages, in order. The sequence ends after the server's close, and throws a
    /// ``WebSocketProtocolError`` when the server broke the protocol or ``WebSocketError/abnormalClosure(reason:)``
    /// when the connection ended without a close. It buffers what the reader has not taken yet.
    public let messages: AsyncThrowingStream<WebSocketMessage, Error>
    private let backend: any WebSocketBackend
    /// What opening the connection took (``WebSocketConversation/metrics`` without `total`), zero for a replay.
    let openingMetrics: TransferMetrics

    /// A socket over `backend`, which feeds `messages`.
    init(
        url: URL, requestHeaders: HTTPHeaders, response: WebSocketUpgradeResponseHead, negotiation: WebSocketNegotiation,
        messages: AsyncThrowingStream<WebSocketMessage, Error>, backend: any WebSocketBackend,
        openingMetrics: TransferMetrics = TransferMetrics()
    ) {
        self.url = url
        self.requestHeaders = requestHeaders
        self.response = response
        self.negotiation = negotiation
        self.messages = messages
        self.backend = backend
        self.openingMetrics = openingMetrics
    }

    deinit { backend.abandon() }

    /// Connects to a `ws` or `wss` URL and completes the opening handshake. Throws a `URLError` when the connection
    /// fails (as requests do) and a ``WebSocketHandshakeError`` when the server does not agree to the upgrade.
    /// `observer`, if given, sees every frame sent and event received, on the connection's thread (a recorder).
    public static func connect(
        to url: URL, options: WebSocketClientOptions = WebSocketClientOptions(),
        observer: (@Sendable (WebSocketTrafficEvent) -> Void)? = nil
    ) async throws -> WebSocket {
        // The outcome crosses threads through a lock, not as the continuation's value: when the connection's thread
        // resumes before this task has suspended, the runtime gives ThreadSanitizer no ordering between the socket's
        // initialisation there and reads of its fields here (Tools/Sanitizers/ContinuationFastPath; seen in CI).
        let outcome = Locked<Result<WebSocket, any Error>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // The connection's own thread: libcurl's connect blocks, and the socket is then waited on with poll(2).
            let thread = Thread {
                let engine: CurlWebSocketEngine
                let opened: CurlWebSocketConnector.Opened
                let messages: AsyncThrowingStream<WebSocketMessage, Error>
                do {
                    opened = try CurlWebSocketConnector.open(url: url, options: options)
                    let (stream, feed) = AsyncThrowingStream<WebSocketMessage, Error>.makeStream()
                    messages = stream
                    engine = try CurlWebSocketEngine(
                        stream: opened.stream, limits: options.limits, closeTimeout: options.closeTimeout,
                        messages: feed, observer: observer)
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                    continuation.resume()
                    return
                }
                // The thread holds the engine, not the socket (no local names it), so a socket nobody holds is closed
                // (deinit).
                outcome.withLock { outcome in
                    outcome = .success(WebSocket(
                        url: url, requestHeaders: opened.request, response: opened.response, negotiation: opened.negotiation,
                        messages: messages, backend: engine, openingMetrics: opened.metrics))
                }
                continuation.resume()
                engine.run(leftover: opened.leftover)
            }
            thread.name = "tapedeck-websocket"
            thread.start()
        }
        // Set before the resume, so never nil here; taken out, so that the thread, which keeps `outcome`, does not
        // keep the socket too.
        return try outcome.withLock { outcome in
            defer { outcome = nil }
            return outcome!
        }.get()
    }

    /// Sends a message. Returns once it is queued for the connection; waits while more than 1 MiB is queued.
    /// Throws ``WebSocketError/notOpen(_:)`` after a close.
    public func send(_ message: WebSocketMessage) async throws {
        try await backend.send(WebSocketFrame(opcode: message.opcode, payload: message.payload))
    }

    /// Sends a ping with `payload` (at most 125 bytes); the server's pong is not waited for.
    public func ping(_ payload: Data = Data()) async throws {
        precondition(payload.count <= WebSocketFrameDecoder.maximumControlPayload, "a ping carries at most 125 bytes")
        try await backend.send(WebSocketFrame(opcode: .ping, payload: payload))
    }

    /// Closes the connection with `code` and `reason`, waits for the server's close (at most the options'
    /// `closeTimeout`), and returns how the connection ended. Closing a connection that already ended returns how.
    @discardableResult
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async -> WebSocketEnding {
        await backend.close(WebSocketClose(code: code, reason: reason))
    }

    /// Waits for the connection to end (the server closes it, or it breaks) and returns how.
    public func ending() async -> WebSocketEnding { await backend.ending() }

    /// How the connection ended, or nil while it is open.
    public var currentEnding: WebSocketEnding? { backend.currentEnding }
}
