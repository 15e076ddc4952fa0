import Foundation

/// What a close frame said: its code (``WebSocketCloseCode/noStatusReceived`` when it carried none) and reason.
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
    /// The status code.
    public var code: WebSocketCloseCode
    /// The reason, possibly empty.
    public var reason: String

    /// A close with `code` and `reason`.
    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// The close a (valid) close frame payload describes: an empty payload is a close without a code (1005).
    public init(payload: Data) {
        guard payload.count >= 2 else {
            self.init(code: .noStatusReceived)
            return
        }
        let start = payload.startIndex
        self.init(
            code: WebSocketCloseCode(rawValue: UInt16(payload[start]) << 8 | UInt16(payload[start + 1])),
            reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
    }

    /// `close 1000` or, with a reason, `close 1001 "going away"`.
    public var description: String { reason.isEmpty ? "close \(code)" : "close \(code) \"\(reason)\"" }
}
