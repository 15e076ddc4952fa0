import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckWebSocket

/// A WebSocket stub's JSON form, the `webSocket` member of a stub definition (in place of `response`):
/// `onConnect` and `otherwise` (arrays of steps), `rules` (an array of `{"message": BODY PATTERN, "steps": [...]}`,
/// the message matched as a request body is; without `message` a rule answers every message; with `"connection":
/// REQUEST PATTERN` only on connections whose upgrade request matches it) and `subprotocols` (strings). A step is an object with exactly one of
/// `sendText` (a string), `sendBase64` (bytes in base64), `waitMilliseconds`, `close` (`{"code": 4000, "reason": …}`)
/// and `drop` (`true`).
///
/// ```json
/// {"request": {"method": "GET", "path": "/chat"},
///  "webSocket": {"onConnect": [{"sendText": "welcome"}],
///                "rules": [{"message": {"jsonPath": "$.type", "value": {"equalTo": "ping"}},
///                           "steps": [{"waitMilliseconds": 50}, {"sendText": "{\"type\":\"pong\"}"}]}],
///                "otherwise": [{"close": {"code": 4000, "reason": "unexpected"}}]}}
/// ```
extension WebSocketStub: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case onConnect, rules, otherwise, subprotocols }

    /// Decodes a stub, refusing unknown fields at their place.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(onConnect: try container.decodeIfPresent([Step].self, forKey: .onConnect) ?? [],
                  rules: try container.decodeIfPresent([Rule].self, forKey: .rules) ?? [],
                  otherwise: try container.decodeIfPresent([Step].self, forKey: .otherwise) ?? [],
                  subprotocols: try container.decodeIfPresent([String].self, forKey: .subprotocols) ?? [])
    }

    /// Encodes the stub as defined (its limits are the Swift API's alone).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !onConnect.isEmpty { try container.encode(onConnect, forKey: .onConnect) }
        if !rules.isEmpty { try container.encode(rules, forKey: .rules) }
        if !otherwise.isEmpty { try container.encode(otherwise, forKey: .otherwise) }
        if !subprotocols.isEmpty { try container.encode(subprotocols, forKey: .subprotocols) }
    }
}

extension WebSocketStub.Rule: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case message, steps, connection }

    /// Decodes a rule: its `message` pattern (absent: every message), its `steps`, and the `connection` (a request
    /// pattern on the upgrade request; absent: every connection).
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decodeIfPresent(BodyPattern.self, forKey: .message),
                  try container.decodeIfPresent([WebSocketStub.Step].self, forKey: .steps) ?? [],
                  connection: try container.decodeIfPresent(RequestPattern.self, forKey: .connection))
    }

    /// Encodes the rule as defined.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encode(steps, forKey: .steps)
        try container.encodeIfPresent(connection, forKey: .connection)
    }
}

extension WebSocketStub.Step: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case sendText, sendBase64, waitMilliseconds, close, drop }
    private enum CloseKeys: String, CodingKey, CaseIterable { case code, reason }

    /// Decodes the one step given.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.definition("give exactly one of sendText, sendBase64, waitMilliseconds, close, drop", at: decoder.codingPath)
        }
        switch key {
        case .sendText:
            self = .send(.text(try container.decode(String.self, forKey: .sendText)))
        case .sendBase64:
            guard let data = Data(base64Encoded: try container.decode(String.self, forKey: .sendBase64)) else {
                throw DecodingError.dataCorruptedError(forKey: .sendBase64, in: container, debugDescription: "is not base64")
            }
            self = .send(.binary(data))
        case .waitMilliseconds:
            let milliseconds = try container.decode(Int.self, forKey: .waitMilliseconds)
            guard milliseconds >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .waitMilliseconds, in: container, debugDescription: "must not be negative, got \(milliseconds)")
            }
            self = .wait(.milliseconds(milliseconds))
        case .close:
            let close = try container.superDecoder(forKey: .close)
            try close.rejectUnknownMembers(CloseKeys.self)
            let members = try close.container(keyedBy: CloseKeys.self)
            let code = WebSocketCloseCode(rawValue: try members.decode(UInt16.self, forKey: .code))
            guard code.isAllowedOnTheWire else {
                throw DecodingError.dataCorruptedError(forKey: .code, in: members, debugDescription: "\(code) is not a code a close frame may carry")
            }
            self = .close(code, reason: try members.decodeIfPresent(String.self, forKey: .reason) ?? "")
        case .drop:
            guard try container.decode(Bool.self, forKey: .drop) else {
                throw DecodingError.dataCorruptedError(forKey: .drop, in: container, debugDescription: "is true or absent")
            }
            self = .drop
        }
    }

    /// Encodes the step as defined.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .send(.text(let text)): try container.encode(text, forKey: .sendText)
        case .send(.binary(let data)): try container.encode(data.base64EncodedString(), forKey: .sendBase64)
        case .wait(let duration): try container.encode(Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000), forKey: .waitMilliseconds)
        case .close(let code, let reason):
            var close = container.nestedContainer(keyedBy: CloseKeys.self, forKey: .close)
            try close.encode(code.rawValue, forKey: .code)
            if !reason.isEmpty { try close.encode(reason, forKey: .reason) }
        case .drop: try container.encode(true, forKey: .drop)
        }
    }
}
