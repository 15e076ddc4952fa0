/// A close frame's status code (RFC 6455 §7.4). Any `UInt16` can be held; ``isAllowedOnTheWire`` tells which ones a
/// peer may actually send in a close frame.
///
/// ```swift
/// let code = WebSocketCloseCode.messageTooBig   // 1009
/// code.isAllowedOnTheWire                      // true
/// WebSocketCloseCode.noStatusReceived.isAllowedOnTheWire  // false: 1005 only reports a close without a code
/// ```
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code.
    public var rawValue: UInt16

    /// A code from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (a server shutting down, a page navigated away).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol (an unmasked client frame, a reserved opcode, a fragmented control frame…).
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept (binary where only text is understood).
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: reported locally when a close frame carried no code; never sent.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: reported locally when the connection ended without a close frame; never sent.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message (or close reason) that is not valid UTF-8.
    public static let invalidPayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a frame or message larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// 1012: the server is restarting; a client may reconnect.
    public static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    /// 1013: the server is overloaded for now; a client may reconnect later.
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)
    /// 1015: reported locally when the TLS handshake failed; never sent.
    public static let tlsHandshakeFailure = WebSocketCloseCode(rawValue: 1015)

    /// Whether a close frame may carry this code (RFC 6455 §7.4.1 and the IANA registry): 1000–1003, 1007–1014 and
    /// the application ranges 3000–4999. 1004 is reserved; 1005, 1006 and 1015 only report what happened locally.
    public var isAllowedOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// The code as a decimal number, e.g. `1000`.
    public var description: String { String(rawValue) }
}
