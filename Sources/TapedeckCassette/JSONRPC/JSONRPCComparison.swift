import Foundation
import TapedeckCore

/// Says how two JSON-RPC bodies differ, for near-miss reports: the first message whose kind, method or params
/// differ, and where in the params.
enum JSONRPCComparison {
    /// The first difference between `live` and `recorded` (both ``JSONRPCBody/messages(_:isBatch:)``), ids aside, and
    /// whether the calls are the same but for their params (a nearer miss than another method).
    static func difference(live: JSONRPCBody, recorded: JSONRPCBody, ignoring ignored: Set<JSONPath>) -> (line: String, onlyParams: Bool)? {
        guard case .messages(let a, let aBatch) = live, case .messages(let b, let bBatch) = recorded else { return nil }
        if aBatch != bBatch || a.count != b.count {
            return ("jsonrpc: recorded \(shape(b, bBatch)), request \(shape(a, aBatch))", false)
        }
        for (index, (x, y)) in zip(a, b).enumerated() {
            let place = aBatch ? "jsonrpc batch element \(index)" : "jsonrpc"
            if x.kind != y.kind || x.method != y.method {
                return ("\(place): recorded \(described(y)), request \(described(x))", false)
            }
            if x.kind == .response {
                if x.comparable(ignoring: ignored) != y.comparable(ignoring: ignored) { return ("\(place): the \(x.summary) differs", true) }
                continue
            }
            let paths = ignored.union([JSONRPCMessage.metadata])
            if let at = (x.params ?? .null).firstDifference(from: y.params ?? .null, ignoring: paths) {
                return ("\(place) \(x.summary): params differ at \(at == "$" ? "params" : "params.\(at)")", true)
            }
        }
        return nil
    }

    private static func shape(_ messages: [JSONRPCMessage], _ isBatch: Bool) -> String {
        isBatch ? "a batch of \(messages.count)" : "one message"
    }

    private static func described(_ message: JSONRPCMessage) -> String {
        switch message.kind {
        case .call: "a call of \(message.summary)"
        case .notification: "a notification \(message.summary)"
        case .response: "a \(message.summary)"
        }
    }
}
