import Foundation

extension HARCodec {
    /// A conversation as Chrome's DevTools write one into a HAR entry (`_webSocketMessages`): `{"type": "send" or
    /// "receive", "time": seconds since 1970, "opcode": 1, "data": "…"}`. Text is written as it is; binary, ping, pong
    /// and close payloads (a close's code and reason as on the wire) in base64.
    static func webSocketMessages(_ transcript: WebSocketTranscript, startedAt: Date) -> CassetteJSON {
        .array(transcript.frames.map { frame in
            let (opcode, data): (Int, String)
            switch frame.kind {
            case .text(let text): (opcode, data) = (1, text)
            case .binary(let payload): (opcode, data) = (2, payload.base64EncodedString())
            case .close(let close):
                var payload = Data([UInt8(close.code.rawValue >> 8), UInt8(close.code.rawValue & 0xFF)])
                payload.append(contentsOf: close.reason.utf8)
                (opcode, data) = (8, payload.base64EncodedString())
            case .ping(let payload): (opcode, data) = (9, payload.base64EncodedString())
            case .pong(let payload): (opcode, data) = (10, payload.base64EncodedString())
            }
            return [
                "type": frame.direction == .client ? "send" : "receive",
                "time": .double(startedAt.timeIntervalSince1970 + frame.offset), "opcode": .integer(opcode), "data": .string(data),
            ]
        })
    }

    /// Reads `_webSocketMessages` back; `path` locates a bad message in errors.
    static func webSocketTranscript(_ json: CassetteJSON, startedAt: Date, path: String) throws(CassetteError) -> WebSocketTranscript {
        guard let messages = json.arrayValue else { throw CassetteError.invalidHAR(path: path, reason: "expected an array") }
        var frames: [WebSocketTranscript.Frame] = []
        for (index, message) in messages.enumerated() {
            let place = "\(path)[\(index)]"
            guard let type = message["type"]?.stringValue, type == "send" || type == "receive",
                  let time = message["time"]?.doubleValue, let opcode = message["opcode"]?.intValue,
                  let data = message["data"]?.stringValue else {
                throw CassetteError.invalidHAR(path: place, reason: "expected \"type\" (send or receive), \"time\", \"opcode\" and \"data\"")
            }
            let bytes = Data(base64Encoded: data)
            let kind: WebSocketTranscript.Kind
            switch (opcode, bytes) {
            case (1, _): kind = .text(data)
            case (2, let payload?): kind = .binary(payload)
            case (8, let payload?): kind = .close(WebSocketClose(payload: payload))
            case (9, let payload?): kind = .ping(payload)
            case (10, let payload?): kind = .pong(payload)
            default:
                throw CassetteError.invalidHAR(path: place, reason: "opcode \(opcode) with data that is not base64, or an opcode that is not 1, 2, 8, 9 or 10")
            }
            let offset = ((time - startedAt.timeIntervalSince1970) * 1_000_000).rounded() / 1_000_000
            frames.append(.init(direction: type == "send" ? .client : .server, kind: kind, offset: max(0, offset)))
        }
        return WebSocketTranscript(frames: frames)
    }
}
