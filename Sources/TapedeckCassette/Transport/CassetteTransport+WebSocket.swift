import Foundation

extension CassetteTransport {
    /// What a cassette does with a WebSocket connection: replay a recorded conversation, or let the connection go
    /// live (recorded, unless the mode is ``RecordMode/passthrough``).
    package enum WebSocketRoute: Sendable {
        /// Replay this interaction's conversation (its ``Interaction/webSocket`` is there), under `fault` when one of
        /// the configuration's ``CassetteConfiguration/conversationFaults`` fired.
        case replay(Interaction, fault: ConversationFault?)
        /// The upstream refused the upgrade when it was recorded: this plain HTTP interaction (at `index` in the
        /// cassette) holds its answer (any status but `101`), which a replay gives again.
        case refused(Interaction, index: Int)
        /// A ``ReplayFault`` replaced the upgrade's answer (at `index` in the cassette): a transport error, or another
        /// response (a `500`, a `503`), which a client gets instead of the `101`.
        case faulted(Interaction, index: Int)
        /// Connect live and hand the conversation to ``recordWebSocket(_:)`` when it ends.
        case record
        /// Connect live and record nothing.
        case live
    }

    /// Looks the upgrade request up as ``send(_:onEvent:)`` looks up a request: by the cassette's match rules, each
    /// recorded conversation replayed once. A miss records in the modes that record. The configuration's faults
    /// fire as for a request: a ``ReplayFault`` that replaces the answer replaces the upgrade's `101`, and a
    /// ``ConversationFault`` comes with the conversation it changes.
    ///
    /// - Throws: ``CassetteError/unmatchedRequest(_:)`` with its near-miss report in replay, and
    ///   ``CassetteError/invalidFormat(file:path:reason:)`` when the interaction that matches is plain HTTP with a
    ///   `101` or no response: neither a conversation nor a refusal.
    package func webSocketRoute(for request: Interaction.Request) throws(CassetteError) -> WebSocketRoute {
        if session.mode == .passthrough { return .live }
        switch session.lookup(request) {
        case .success(let playback):
            guard playback.interaction.webSocket != nil else {
                if let status = playback.interaction.response?.statusCode, status != 101 { return .refused(playback.interaction, index: playback.index) }
                throw CassetteError.invalidFormat(
                    file: session.url.path, path: "interactions[\(playback.index)]",
                    reason: "\(request.summary) matches an interaction without a WebSocket conversation (\"webSocket\")")
            }
            switch session.fault(for: playback) {
            case .fault(let transportFault)?:
                var faulted = playback.interaction
                faulted.outcome = Interaction.Outcome(transportFault)
                return .faulted(faulted, index: playback.index)
            case .answer(let outcome)?:
                var faulted = playback.interaction
                faulted.outcome = outcome
                return .faulted(faulted, index: playback.index)
            case .delay?, nil:
                break
            }
            let fault = session.configuration.conversationFaults.isEmpty ? nil : session.state.withLock { state in
                ConversationFault.firing(session.configuration.conversationFaults, for: playback,
                                         firings: &state.conversationFaultFirings, player: &state.player)
            }
            return .replay(playback.interaction, fault: fault)
        case .failure(let error):
            guard case .unmatchedRequest = error, session.records, session.upstream != nil else { throw error }
            return .record
        }
    }

    /// The matcher a replay of a connection upgraded with `request` compares the client's frames with: live frames
    /// redacted with the cassette's policy and salt, as the recording was.
    package func webSocketMatcher(mode: WebSocketFrameMatcher.Mode, upgrade request: Interaction.Request) -> WebSocketFrameMatcher {
        WebSocketFrameMatcher(mode: mode, redaction: session.redaction, upgrade: request)
    }

    /// Adds a recorded WebSocket interaction (or an upgrade the upstream refused, as the plain HTTP interaction it
    /// is) to the cassette, redacted (text payloads as bodies) and on disk before returning, as a recorded request is.
    package func recordWebSocket(_ interaction: Interaction) throws(CassetteError) {
        try session.commit(interaction)
    }
}
