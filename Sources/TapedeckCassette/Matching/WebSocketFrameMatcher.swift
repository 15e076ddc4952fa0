import Foundation

/// How a replay compares a frame the client sends with the recorded one it must be: the live frame is redacted as
/// the recording was (same stand-ins under the cassette's salt, copies of the upgrade request's secrets scrubbed),
/// stand-ins are blurred on both sides as request matching does, then text is compared exactly or, with
/// ``Mode/json``, as JSON ignoring member order and number spelling.
///
/// ```swift
/// let matcher = WebSocketFrameMatcher(mode: .json)
/// matcher.matches(.text(#"{"b":1,"a":2}"#), recorded: .text(#"{"a":2,"b":1.0}"#))   // true
/// ```
public struct WebSocketFrameMatcher: Sendable {
    /// How text payloads are compared.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// The same text.
        case exact
        /// Texts that both parse as JSON are equal as JSON (member order and number spelling aside); others exactly.
        case json
    }

    /// How text payloads are compared.
    public var mode: Mode
    /// The policy live frames are redacted with (the cassette's, with its salt), or nil to compare them as sent.
    let redaction: Redaction?
    /// Secrets the connection carried (its upgrade request's), scrubbed from live frames as recording scrubbed them.
    let secrets: [String]

    /// A matcher that compares live frames as they are sent.
    public init(mode: Mode = .exact) {
        self.init(mode: mode, redaction: nil, secrets: [])
    }

    init(mode: Mode, redaction: Redaction?, secrets: [String]) {
        self.mode = mode
        self.redaction = redaction
        self.secrets = secrets
    }

    /// A matcher for a connection whose upgrade request is `request`, redacting as `redaction` records.
    init(mode: Mode, redaction: Redaction, upgrade request: Interaction.Request) {
        self.init(mode: mode, redaction: redaction, secrets: redaction.secretValues(of: request))
    }

    /// A matcher for replaying a conversation of a cassette whose salt is `salt`: live frames are redacted with
    /// `redaction` under that salt (the stand-ins the recording made), and scrubbed of the upgrade request's secrets.
    package static func replaying(mode: Mode, redaction: Redaction, salt: RedactionSalt?, upgrade request: Interaction.Request) -> WebSocketFrameMatcher {
        WebSocketFrameMatcher(mode: mode, redaction: redaction.standingIn(salt), upgrade: request)
    }

    /// Whether the frame the client sends now is the recorded one.
    public func matches(_ live: WebSocketTranscript.Kind, recorded: WebSocketTranscript.Kind) -> Bool {
        if live == recorded { return true }
        switch (redacted(live), recorded) {
        case (.text(let sent), .text(let expected)):
            let sent = StandIn.blurred(sent), expected = StandIn.blurred(expected)
            if sent == expected { return true }
            guard mode == .json, let left = CassetteJSON.parseBody(Data(sent.utf8)),
                  let right = CassetteJSON.parseBody(Data(expected.utf8)) else { return false }
            return left.semanticallyEquals(right)
        case (.close(let sent), .close(let expected)):
            return sent.code == expected.code && StandIn.blurred(sent.reason) == StandIn.blurred(expected.reason)
        case (let sent, let expected):
            return sent == expected
        }
    }

    /// The live frame as recording would have stored it.
    private func redacted(_ kind: WebSocketTranscript.Kind) -> WebSocketTranscript.Kind {
        guard let redaction else { return kind }
        var transcript = WebSocketTranscript(frames: [.init(direction: .client, kind: kind, offset: 0)])
        if redaction.redactsDefaults || !redaction.filters.isEmpty { transcript = redaction.redactWebSocket(transcript) }
        transcript = redaction.scrubWebSocket(transcript, secrets: secrets)
        return transcript.frames[0].kind
    }
}
