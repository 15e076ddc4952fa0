import Foundation
import TapedeckCore

/// A request body read as JSON-RPC 2.0 (the Model Context Protocol over HTTP, Ethereum nodes, language servers): one
/// message, or a batch of them in an array. What a replay compares is what the call asks, never its `id`, which each
/// client numbers its own way.
///
/// ```swift
/// let body = JSONRPCBody.read(Data(#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#.utf8))
/// if case .messages(let messages, _) = body { messages[0].summary }   // "tools/list"
/// ```
enum JSONRPCBody: Sendable {
    /// The messages, in order; `isBatch` when they came as an array.
    case messages([JSONRPCMessage], isBatch: Bool)
    /// Not JSON-RPC: not a JSON object or array, or no `"jsonrpc"` member.
    case notJSONRPC
    /// JSON that says it is JSON-RPC (a `"jsonrpc"` member) but is not a message: `reason` says why.
    case malformed(String)

    /// Reads `data`.
    static func read(_ data: Data) -> JSONRPCBody {
        guard let value = CassetteJSON.parseBody(data) else { return .notJSONRPC }
        switch value {
        case .object:
            guard value["jsonrpc"] != nil else { return .notJSONRPC }
            switch JSONRPCMessage.read(value) {
            case .success(let message): return .messages([message], isBatch: false)
            case .failure(let problem): return .malformed(problem.reason)
            }
        case .array(let elements):
            guard elements.contains(where: { $0["jsonrpc"] != nil }) else { return .notJSONRPC }
            guard !elements.isEmpty else { return .malformed("an empty batch") }
            var messages: [JSONRPCMessage] = []
            for (index, element) in elements.enumerated() {
                switch JSONRPCMessage.read(element) {
                case .success(let message): messages.append(message)
                case .failure(let problem): return .malformed("batch element \(index): \(problem.reason)")
                }
            }
            return .messages(messages, isBatch: true)
        default:
            return .notJSONRPC
        }
    }

    /// What the ``MatchRule/jsonRPC(ignoringParams:)`` rule compares, as one text: per message its kind, method and
    /// params (canonical JSON without `_meta` and the `ignored` paths, which are relative to the params); a
    /// client's response to the server, whole. `nil` when the body is not JSON-RPC.
    func comparable(ignoring ignored: Set<JSONPath>) -> String? {
        guard case .messages(let messages, let isBatch) = self else { return nil }
        let parts = messages.map { $0.comparable(ignoring: ignored) }
        return isBatch ? "[" + parts.joined(separator: "\u{2}") + "]" : parts[0]
    }

    /// The methods, for reports: `tools/call get_weather`, `[initialize, notifications/initialized]`.
    var summary: String? {
        guard case .messages(let messages, let isBatch) = self else { return nil }
        let names = messages.map(\.summary)
        return isBatch ? "[" + names.joined(separator: ", ") + "]" : names[0]
    }
}

/// One JSON-RPC 2.0 message a client sends: a call (a `method` and an `id`), a notification (a `method` without an
/// `id`), or a response to a request the server sent (`result` or `error`, with the server's `id`).
struct JSONRPCMessage: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case call, notification, response }

    struct Problem: Error, Equatable {
        var reason: String
    }

    var kind: Kind
    /// The method; `nil` for a response.
    var method: String?
    var params: CassetteJSON?
    var id: CassetteJSON?
    /// The whole message.
    var value: CassetteJSON

    /// The params that protocols reserve for metadata (MCP's progress tokens): never compared.
    static let metadata: JSONPath = "_meta"

    static func read(_ value: CassetteJSON) -> Result<JSONRPCMessage, Problem> {
        guard case .object = value else { return .failure(Problem(reason: "not an object")) }
        guard value["jsonrpc"] == .string("2.0") else {
            return .failure(Problem(reason: "\"jsonrpc\" is \(value["jsonrpc"].map { CassetteJSON.serializedText($0) } ?? "missing"), not \"2.0\""))
        }
        if let method = value["method"] {
            guard case .string(let name) = method else { return .failure(Problem(reason: "\"method\" is not a string")) }
            let id = value["id"]
            return .success(JSONRPCMessage(kind: id == nil ? .notification : .call, method: name, params: value["params"], id: id, value: value))
        }
        if value["result"] != nil || value["error"] != nil, let id = value["id"] {
            return .success(JSONRPCMessage(kind: .response, method: nil, params: nil, id: id, value: value))
        }
        return .failure(Problem(reason: "no \"method\" (nor a \"result\" or \"error\" answering an \"id\")"))
    }

    /// See ``JSONRPCBody/comparable(ignoring:)``.
    func comparable(ignoring ignored: Set<JSONPath>) -> String {
        switch kind {
        case .call, .notification:
            let params = params?.canonical(ignoring: ignored.union([Self.metadata])) ?? "-"
            return (kind == .call ? "c" : "n") + "\u{1}" + (method ?? "") + "\u{1}" + params
        case .response:
            var members = value.objectValue ?? []
            members.removeAll { $0.key == "id" || $0.key == "jsonrpc" }
            return "r\u{1}" + CassetteJSON.object(members).canonical()
        }
    }

    /// The method, with the tool, prompt or resource an MCP call names: `tools/call get_weather`; a response is
    /// `response to <id>`.
    var summary: String {
        guard let method else { return "response to \(id.map { CassetteJSON.serializedText($0) } ?? "?")" }
        let named: String? = switch method {
        case "tools/call", "prompts/get": params?["name"]?.stringValue
        case "resources/read", "resources/subscribe", "resources/unsubscribe": params?["uri"]?.stringValue
        default: nil
        }
        return named.map { "\(method) \($0)" } ?? method
    }
}

extension CassetteJSON {
    /// The value as compact JSON text, for messages.
    static func serializedText(_ value: CassetteJSON) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }
}

extension Interaction.Request {
    /// The JSON-RPC method(s) of the body, with the tool, prompt or resource an MCP call names (`tools/call
    /// get_weather`, `[initialize, notifications/initialized]`); `nil` when the body is not JSON-RPC or not inline.
    package var jsonRPCSummary: String? {
        body.inlineData.flatMap { JSONRPCBody.read($0).summary }
    }
}
