import Foundation
import TapedeckCore
import TapedeckWebSocket

/// A WireMock 4 message stub mapping read as one rule of the WebSocket stub that all of a document's (or a folder's)
/// message mappings make up, with the priority that orders it among them.
struct WireMockMessageRule: Sendable {
    var priority: Int
    var rule: WebSocketStub.Rule
}

/// WireMock 4's message stub mappings (wiremock.org/docs/messaging/stubbing/): `{"trigger": {"type": "message",
/// "channel": {"type": "websocket", "initiatingRequestPattern": REQUEST PATTERN}, "message": {"body": MATCHER}},
/// "actions": [{"type": "send", "message": {"body": ENTITY}, "channelTarget": {"type": "originating"}}]}`.
///
/// What maps onto a ``WebSocketStub/Rule``: the channel pattern becomes the rule's ``WebSocketStub/Rule/connection``
/// (the connection's upgrade request), the body matcher its message pattern, and each send to the originating
/// channel a ``WebSocketStub/Step/send(_:)``. Everything else is refused with its JSON path: triggers fired by HTTP
/// requests (`http-request`, `http-stub`), fixed channels, sends to other connections (`request-initiated`,
/// `fixed-channel` targets), transformers, and text bodies holding `{{`, which WireMock renders as a Handlebars
/// template on every message it sends. WireMock 4 has no action for a connection's opening, so nothing is read into
/// ``WebSocketStub/onConnect``.
extension WireMockMappingReader {
    static let messageMappingFields: Set<String> = ["id", "name", "priority", "trigger", "actions", "metadata"]

    /// Whether a mapping's members make a message stub mapping (`trigger` or `actions`, no `request` or `response`).
    static func isMessageMapping(_ members: [String: JSONValue]) -> Bool {
        members["request"] == nil && members["response"] == nil && (members["trigger"] != nil || members["actions"] != nil)
    }

    func messageRule() throws(WireMockMappingError) -> WireMockMessageRule {
        guard case .object(let members) = mapping else { throw fail("", "expected a mapping (an object)") }
        try checkFields(members, at: "", allowed: Self.messageMappingFields, unsupported: [:])
        if members["id"] != nil { _ = try string(members["id"], at: "id") }
        if members["name"] != nil { _ = try string(members["name"], at: "name") }
        let priority = try members["priority"].map { value throws(WireMockMappingError) in try integer(value, at: "priority") }
        let (connection, message) = try trigger(members["trigger"])
        var steps: [WebSocketStub.Step] = []
        if let actions = members["actions"] {
            guard case .array(let list) = actions else { throw fail("actions", "expected an array of actions") }
            for (index, action) in list.enumerated() {
                steps.append(try sendStep(action, at: "actions[\(index)]"))
            }
        }
        return WireMockMessageRule(priority: priority ?? Stub.defaultPriority, rule: .init(message, steps, connection: connection))
    }

    /// The trigger's channel pattern (the upgrade request) and message pattern; no trigger accepts every message.
    private func trigger(_ value: JSONValue?) throws(WireMockMappingError) -> (RequestPattern?, BodyPattern?) {
        guard let value else { return (nil, nil) }
        guard case .object(let members) = value else { throw fail("trigger", "expected an object") }
        let type = try optionalString(members["type"], at: "trigger.type") ?? "message"
        guard type == "message" else {
            if type == "http-request" || type == "http-stub" {
                throw fail("trigger.type", "\"\(type)\" triggers (messages sent when an HTTP request arrives) are not supported; "
                           + "a WebSocket stub answers the messages of its own connection (\"message\")")
            }
            throw fail("trigger.type", "unknown trigger type \"\(type)\"; the stub server reads \"message\"")
        }
        try checkFields(members, at: "trigger", allowed: ["type", "channel", "message"], unsupported: [:])
        var connection: RequestPattern?
        if let channel = members["channel"] {
            guard case .object(let fields) = channel else { throw fail("trigger.channel", "expected an object") }
            let channelType = try string(fields["type"], at: "trigger.channel.type")
            guard channelType == "websocket" else {
                throw fail("trigger.channel.type", channelType == "fixed"
                           ? "fixed channels (message brokers) are not supported; the stub server's channels are WebSocket connections"
                           : "unknown channel type \"\(channelType)\"; the stub server reads \"websocket\"")
            }
            try checkFields(fields, at: "trigger.channel", allowed: ["type", "initiatingRequestPattern"], unsupported: [:])
            connection = try fields["initiatingRequestPattern"].map { pattern throws(WireMockMappingError) in
                try requestPattern(pattern, at: "trigger.channel.initiatingRequestPattern")
            }
        }
        var body: BodyPattern?
        if let message = members["message"] {
            guard case .object(let fields) = message else { throw fail("trigger.message", "expected an object") }
            try checkFields(fields, at: "trigger.message", allowed: ["body", "channel"], unsupported: [:])
            if let channel = fields["channel"] {
                if connection != nil {
                    throw fail("trigger.message.channel", "give the channel once, in trigger.channel or in trigger.message.channel")
                }
                connection = try requestPattern(channel, at: "trigger.message.channel")
            }
            body = try fields["body"].map { pattern throws(WireMockMappingError) in try bodyPattern(pattern, at: "trigger.message.body") }
        }
        return (connection, body)
    }

    /// A `send` action to the originating channel.
    private func sendStep(_ action: JSONValue, at path: String) throws(WireMockMappingError) -> WebSocketStub.Step {
        guard case .object(let members) = action else { throw fail(path, "expected an action object such as {\"type\": \"send\", …}") }
        let type = try string(members["type"], at: "\(path).type")
        guard type == "send" else { throw fail("\(path).type", "unknown action type \"\(type)\"; the stub server reads \"send\"") }
        try checkFields(members, at: path, allowed: ["type", "message", "channelTarget"], unsupported: [
            "transformers": "message transformers are not supported",
            "transformerParameters": "message transformers are not supported",
        ])
        if let target = members["channelTarget"] {
            guard case .object(let fields) = target else { throw fail("\(path).channelTarget", "expected an object") }
            let targetType = try string(fields["type"], at: "\(path).channelTarget.type")
            guard targetType == "originating" else {
                throw fail("\(path).channelTarget.type", "sending to other channels (\"\(targetType)\") is not supported; "
                           + "a WebSocket stub answers on the connection the message came on (\"originating\")")
            }
            try checkFields(fields, at: "\(path).channelTarget", allowed: ["type"], unsupported: [:])
        }
        guard case .object(let message)? = members["message"] else {
            throw fail("\(path).message", members["message"] == nil ? "is missing" : "expected an object such as {\"body\": …}")
        }
        try checkFields(message, at: "\(path).message", allowed: ["body"], unsupported: [:])
        return .send(try messageBody(message["body"], at: "\(path).message.body"))
    }

    /// A message body: a string, or an entity `{"data": TEXT or JSON}` / `{"base64Data": …}` with an optional
    /// `format` (`binary` sends a binary message, the others text), UTF-8 `charset` and no compression.
    private func messageBody(_ value: JSONValue?, at path: String) throws(WireMockMappingError) -> WebSocketMessage {
        guard let value else { return .text("") }
        var bytes: Data
        var binary = false
        switch value {
        case .string(let text):
            bytes = Data(text.utf8)
        case .object(let fields):
            try checkFields(fields, at: path, allowed: ["data", "base64Data", "format", "charset", "compression"], unsupported: [
                "filePath": "message bodies from files (filePath) are not supported",
                "dataStore": "message bodies from data stores are not supported",
                "dataRef": "message bodies from data stores are not supported",
            ])
            if fields["data"] != nil, fields["base64Data"] != nil { throw fail(path, "give data or base64Data, not both") }
            if let charset = try optionalString(fields["charset"], at: "\(path).charset"),
               !["utf-8", "utf8"].contains(charset.lowercased()) {
                throw fail("\(path).charset", "only UTF-8 is supported, not \"\(charset)\"")
            }
            if let compression = try optionalString(fields["compression"], at: "\(path).compression"), compression.lowercased() != "none" {
                throw fail("\(path).compression", "compressed message bodies are not supported")
            }
            let format = try optionalString(fields["format"], at: "\(path).format")?.lowercased()
            if let format, !["text", "json", "html", "xml", "binary"].contains(format) {
                throw fail("\(path).format", "unknown format \"\(format)\"; use text, json, html, xml or binary")
            }
            switch fields["data"] {
            case nil:
                if let encoded = try optionalString(fields["base64Data"], at: "\(path).base64Data") {
                    guard let decoded = Data(base64Encoded: encoded) else { throw fail("\(path).base64Data", "is not valid base64") }
                    bytes = decoded
                    binary = format == nil || format == "binary"
                } else {
                    bytes = Data()
                }
            case .string(let text)?:
                bytes = Data(text.utf8)
            case .object(let json)?:
                bytes = JSONValue.object(json).encoded
            default:
                throw fail("\(path).data", "expected a string or a JSON object")
            }
            binary = binary || format == "binary"
        default:
            throw fail(path, "expected a string or an object such as {\"data\": …}")
        }
        if binary { return .binary(bytes) }
        guard let text = String(data: bytes, encoding: .utf8) else { throw fail(path, "is not UTF-8 text; give \"format\": \"binary\"") }
        if text.contains("{{") {
            throw fail(path, "holds \"{{\": WireMock renders every text message it sends as a Handlebars template, "
                       + "and message templating is not supported")
        }
        return .text(text)
    }
}
