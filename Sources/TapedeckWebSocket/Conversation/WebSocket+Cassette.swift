import Foundation
import TapedeckCassette
import TapedeckCore

extension WebSocket {
    /// Connects through a cassette, as requests go through a `CassetteTransport`: a recorded conversation for
    /// this URL is replayed in process (``replay(_:matching:)``); a connection the cassette does not have goes live in the
    /// modes that record, and its conversation is written into the cassette (redacted) when it ends, before
    /// ``close(_:reason:)`` or ``ending()`` returns. A replay compares what the client sends with the recording as
    /// `matching` says, after redacting it as the recording was (so a password sent live matches its stand-in).
    /// A `ConversationFault` of the cassette's `CassetteConfiguration/conversationFaults` that fires for the
    /// conversation replays it with that drop, close or stall (``replay(_:matching:fault:closeTimeout:)``).
    ///
    /// ```swift
    /// let cassette = try CassetteTransport(cassette: url, mode: .once, upstream: CurlTransport())
    /// let socket = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:8765/chat")!, through: cassette)
    /// try await socket.send(.text("hello"))
    /// … read, close …
    /// try cassette.finish()
    /// ```
    ///
    /// - Throws: `CassetteError/unmatchedRequest(_:)` when only replaying and the cassette has no conversation
    ///   for the URL; ``WebSocketHandshakeError/unexpectedStatus(_:)`` when it holds the upstream's refusal of the
    ///   upgrade (recorded by a proxy) or an injected `ReplayFault`'s answer, and the `URLError` of an injected
    ///   transport error; `InteractionFault.NotApplicable` when a conversation fault that fired needs
    ///   more server frames than the recording has; what ``connect(to:options:observer:)`` throws for a live connection.
    public static func connect(
        to url: URL, through cassette: CassetteTransport, options: WebSocketClientOptions = WebSocketClientOptions(),
        matching: WebSocketFrameMatcher.Mode = .exact
    ) async throws -> WebSocket {
        let request = Interaction.Request(method: "GET", url: url.absoluteString, headers: options.headers)
        switch try cassette.webSocketRoute(for: request) {
        case .replay(let interaction, let fault):
            guard let conversation = WebSocketConversation(interaction) else {
                throw CassetteError.invalidFormat(
                    file: cassette.cassetteURL.path, path: "interactions", reason: "the conversation for \(request.summary) has no response")
            }
            return try replay(conversation, matching: cassette.webSocketMatcher(mode: matching, upgrade: request), fault: fault,
                              closeTimeout: options.closeTimeout)
        case .refused(let interaction, _), .faulted(let interaction, _):
            // What the live client throws for the same answer.
            if let failure = interaction.failure { throw failure.urlError(failingURL: url) }
            throw WebSocketHandshakeError.unexpectedStatus(interaction.response?.statusCode ?? 0)
        case .live:
            return try await connect(to: url, options: options)
        case .record:
            let recorder = WebSocketRecorder { conversation, startedAt in
                try cassette.recordWebSocket(conversation.interaction(recordedAt: startedAt))
            }
            return try await recorder.connect(to: url, options: options)
        }
    }
}
