/// Why an opening handshake failed (RFC 6455 §4), on either side. A server answers a failed request with
/// ``httpStatus`` (426 with `Sec-WebSocket-Version: 13` for a version it does not speak, 400 otherwise).
public enum WebSocketHandshakeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request's method is not GET.
    case methodNotGET(String)
    /// No `Upgrade: websocket`.
    case missingUpgradeHeader(String?)
    /// No `upgrade` token in `Connection`.
    case missingConnectionUpgrade(String?)
    /// `Sec-WebSocket-Version` is not 13.
    case unsupportedVersion(String?)
    /// `Sec-WebSocket-Key` is missing or not 16 bytes in base64.
    case invalidKey(String?)
    /// The server did not answer 101.
    case unexpectedStatus(Int)
    /// The server's `Sec-WebSocket-Accept` is not the one the key asks for.
    case wrongAccept(expected: String, received: String?)
    /// The server chose a subprotocol the client did not offer.
    case subprotocolNotOffered(String)
    /// The server accepted an extension the client did not offer.
    case extensionNotOffered(String)
    /// A `Sec-WebSocket-Extensions` value that does not follow the grammar.
    case malformedExtensions(String)
    /// The server's answer is not an HTTP/1.1 response head.
    case malformedResponse(String)

    /// The status a server answers a failed request with.
    public var httpStatus: Int {
        if case .unsupportedVersion = self { return 426 }
        return 400
    }

    /// How messages, logs and test failures print it.
    public var description: String {
        switch self {
        case .methodNotGET(let method): return "a WebSocket upgrade must be a GET, not \(method)"
        case .missingUpgradeHeader(let value): return "Upgrade is \(Self.shown(value)), not websocket"
        case .missingConnectionUpgrade(let value): return "Connection is \(Self.shown(value)), without the upgrade token"
        case .unsupportedVersion(let value): return "Sec-WebSocket-Version is \(Self.shown(value)), not 13"
        case .invalidKey(let value): return "Sec-WebSocket-Key is \(Self.shown(value)), not 16 bytes in base64"
        case .unexpectedStatus(let status): return "the server answered the upgrade with \(status), not 101"
        case .wrongAccept(let expected, let received):
            return "Sec-WebSocket-Accept is \(Self.shown(received)), the key asks for \(expected)"
        case .subprotocolNotOffered(let name): return "the server chose subprotocol \(name), which was not offered"
        case .extensionNotOffered(let name): return "the server accepted extension \(name), which was not offered"
        case .malformedExtensions(let value): return "Sec-WebSocket-Extensions \"\(value)\" does not follow RFC 6455 §9.1"
        case .malformedResponse(let detail): return "the answer to the upgrade is not an HTTP/1.1 response: \(detail)"
        }
    }

    private static func shown(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "missing" }
}
