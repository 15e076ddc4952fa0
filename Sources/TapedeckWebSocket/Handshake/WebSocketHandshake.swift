import Crypto
import Foundation
import TapedeckCore

/// The opening handshake (RFC 6455 §4): the key a client sends, the accept value a server derives from it, the
/// request's headers, and the checks each side makes of the other's half.
///
/// ```swift
/// let key = WebSocketHandshake.makeKey()
/// var headers = WebSocketHandshake.requestHeaders(key: key, subprotocols: ["chat"])
/// // … send GET with `headers`, read the answer …
/// let negotiated = try WebSocketHandshake.validateResponse(
///     status: 101, headers: answerHeaders, key: key, offeredSubprotocols: ["chat"])
/// negotiated.subprotocol   // "chat"
/// ```
public enum WebSocketHandshake {
    /// The GUID the RFC appends to the key before hashing it.
    public static let keyGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The protocol version this implementation speaks.
    public static let version = "13"

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes in base64.
    public static func makeKey<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }

    /// A fresh `Sec-WebSocket-Key` from the system's random number generator.
    public static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return makeKey(using: &generator)
    }

    /// The `Sec-WebSocket-Accept` value for `key`: base64 of the SHA-1 of the key and ``keyGUID``.
    public static func acceptValue(forKey key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key + keyGUID).utf8))).base64EncodedString()
    }

    /// Whether `key` is what a client must send: base64 of 16 bytes.
    public static func isValidKey(_ key: String) -> Bool {
        Data(base64Encoded: key)?.count == 16
    }

    /// The headers a client's upgrade request carries, besides `Host` and any of the caller's own.
    public static func requestHeaders(
        key: String, subprotocols: [String] = [], extensions: [WebSocketExtension] = []
    ) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": version,
        ]
        if !subprotocols.isEmpty { headers.add(name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", ")) }
        if !extensions.isEmpty { headers.add(name: "Sec-WebSocket-Extensions", value: WebSocketExtension.headerValue(extensions)) }
        return headers
    }

    /// Checks a server's answer to the upgrade request sent with `key` and these offers (RFC 6455 §4.1), and returns
    /// what was agreed.
    public static func validateResponse(
        status: Int, headers: HTTPHeaders, key: String,
        offeredSubprotocols: [String] = [], offeredExtensions: [WebSocketExtension] = []
    ) throws(WebSocketHandshakeError) -> WebSocketNegotiation {
        guard status == 101 else { throw .unexpectedStatus(status) }
        try checkUpgradeHeaders(headers)
        let expected = acceptValue(forKey: key)
        let received = headers["Sec-WebSocket-Accept"]?.trimmingCharacters(in: .whitespaces)
        guard received == expected else { throw .wrongAccept(expected: expected, received: received) }
        let subprotocol = headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces)
        if let subprotocol, !offeredSubprotocols.contains(subprotocol) { throw .subprotocolNotOffered(subprotocol) }
        let extensions = try combinedExtensions(headers)
        let offeredNames = Set(offeredExtensions.map(\.name))
        if let unoffered = extensions.first(where: { !offeredNames.contains($0.name) }) { throw .extensionNotOffered(unoffered.name) }
        return WebSocketNegotiation(subprotocol: subprotocol, extensions: extensions)
    }

    /// Checks a client's upgrade request (RFC 6455 §4.2.1) and returns the server's answer: the first of the client's
    /// subprotocols that `supportedSubprotocols` lists, and the offered extensions `acceptExtension` accepts (it may
    /// return the extension with the parameters the server chose).
    public static func answer(
        method: String, headers: HTTPHeaders, supportedSubprotocols: [String] = [],
        acceptExtension: (WebSocketExtension) -> WebSocketExtension? = { _ in nil }
    ) throws(WebSocketHandshakeError) -> WebSocketServerAnswer {
        guard method == "GET" else { throw .methodNotGET(method) }
        try checkUpgradeHeaders(headers)
        let version = headers["Sec-WebSocket-Version"]?.trimmingCharacters(in: .whitespaces)
        guard version == self.version else { throw .unsupportedVersion(version) }
        let key = headers["Sec-WebSocket-Key"]?.trimmingCharacters(in: .whitespaces)
        guard let key, isValidKey(key) else { throw .invalidKey(key) }
        let offered = headers.values(for: "Sec-WebSocket-Protocol").flatMap(HTTPFieldSyntax.listElements)
        let subprotocol = offered.first { supportedSubprotocols.contains($0) }
        var accepted: [WebSocketExtension] = []
        var acceptedNames: Set<String> = []
        for offer in try combinedExtensions(headers) where !acceptedNames.contains(offer.name) {
            // A client may offer one extension several times with different parameters; the first accepted one wins.
            if let chosen = acceptExtension(offer) {
                accepted.append(chosen)
                acceptedNames.insert(offer.name)
            }
        }
        return WebSocketServerAnswer(
            accept: acceptValue(forKey: key), negotiation: WebSocketNegotiation(subprotocol: subprotocol, extensions: accepted))
    }

    /// `Upgrade: websocket` and `Connection: upgrade`, both case-insensitive tokens in lists.
    private static func checkUpgradeHeaders(_ headers: HTTPHeaders) throws(WebSocketHandshakeError) {
        let upgrade = headers.values(for: "Upgrade")
        guard upgrade.flatMap(HTTPFieldSyntax.listElements).contains(where: { $0.lowercased() == "websocket" }) else {
            throw .missingUpgradeHeader(upgrade.isEmpty ? nil : upgrade.joined(separator: ", "))
        }
        let connection = headers.values(for: "Connection")
        guard connection.flatMap(HTTPFieldSyntax.listElements).contains(where: { $0.lowercased() == "upgrade" }) else {
            throw .missingConnectionUpgrade(connection.isEmpty ? nil : connection.joined(separator: ", "))
        }
    }

    private static func combinedExtensions(_ headers: HTTPHeaders) throws(WebSocketHandshakeError) -> [WebSocketExtension] {
        var extensions: [WebSocketExtension] = []
        for value in headers.values(for: "Sec-WebSocket-Extensions") { extensions += try WebSocketExtension.parseList(value) }
        return extensions
    }
}

/// What the handshake agreed on: the subprotocol and the extensions in use.
public struct WebSocketNegotiation: Sendable, Hashable {
    /// The subprotocol the server chose, if any.
    public var subprotocol: String?
    /// The extensions the server accepted, in order.
    public var extensions: [WebSocketExtension]

    /// A negotiation.
    public init(subprotocol: String? = nil, extensions: [WebSocketExtension] = []) {
        self.subprotocol = subprotocol
        self.extensions = extensions
    }
}

/// A server's answer to a valid upgrade request: the accept value and what it agreed to.
public struct WebSocketServerAnswer: Sendable, Hashable {
    /// The `Sec-WebSocket-Accept` value.
    public var accept: String
    /// The subprotocol and extensions the server chose.
    public var negotiation: WebSocketNegotiation

    /// An answer with `accept` (``WebSocketHandshake/acceptValue(forKey:)``) and what the server agreed to.
    public init(accept: String, negotiation: WebSocketNegotiation) {
        self.accept = accept
        self.negotiation = negotiation
    }

    /// The `101 Switching Protocols` headers.
    public var headers: HTTPHeaders {
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept]
        if let subprotocol = negotiation.subprotocol { headers.add(name: "Sec-WebSocket-Protocol", value: subprotocol) }
        if !negotiation.extensions.isEmpty {
            headers.add(name: "Sec-WebSocket-Extensions", value: WebSocketExtension.headerValue(negotiation.extensions))
        }
        return headers
    }
}
