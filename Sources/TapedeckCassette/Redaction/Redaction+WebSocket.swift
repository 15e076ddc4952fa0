import Foundation

extension Redaction {
    /// A WebSocket conversation with its text payloads redacted as bodies are (sensitive JSON members become
    /// stand-ins, JSON-path and regular-expression filters apply) and its close reasons through the regular
    /// expressions. Binary, ping and pong payloads are only scrubbed of copies of secrets (``scrubWebSocket(_:secrets:)``).
    func redactWebSocket(_ transcript: WebSocketTranscript) -> WebSocketTranscript {
        map(transcript) { text in
            let data = Data(text.utf8)
            let redacted = redactBodyBytes(data, contentType: nil)
            return redacted == data ? text : String(decoding: redacted, as: UTF8.self)
        } reason: { applyRegexes($0) }
    }

    /// A WebSocket conversation with copies of `secrets` scrubbed from its text payloads, close reasons, and binary
    /// payloads that are UTF-8 text (as from bodies, ``scrubBytes(_:secrets:)``).
    func scrubWebSocket(_ transcript: WebSocketTranscript, secrets: some SecretsToScrub) -> WebSocketTranscript {
        guard !secrets.isEmpty else { return transcript }
        return map(transcript) { scrub($0, secrets: secrets) } reason: { scrub($0, secrets: secrets) } binary: { scrubBytes($0, secrets: secrets) }
    }

    /// The text payloads of a conversation, whose sensitive JSON members are secrets to scrub everywhere.
    static func textPayloads(of transcript: WebSocketTranscript?) -> [String] {
        transcript?.frames.compactMap { if case .text(let text) = $0.kind { text } else { nil } } ?? []
    }

    private func map(
        _ transcript: WebSocketTranscript, text: (String) -> String, reason: (String) -> String, binary: ((Data) -> Data)? = nil
    ) -> WebSocketTranscript {
        var result = transcript
        for index in result.frames.indices {
            switch result.frames[index].kind {
            case .text(let payload):
                let rewritten = text(payload)
                if rewritten != payload { result.frames[index].kind = .text(rewritten) }
            case .binary(let payload):
                if let binary, case let rewritten = binary(payload), rewritten != payload { result.frames[index].kind = .binary(rewritten) }
            case .close(var close) where !close.reason.isEmpty:
                let rewritten = reason(close.reason)
                if rewritten != close.reason {
                    close.reason = rewritten
                    result.frames[index].kind = .close(close)
                }
            default:
                break
            }
        }
        return result
    }
}
