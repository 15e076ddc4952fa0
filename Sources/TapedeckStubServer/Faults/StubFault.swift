import Foundation

/// A failure a stub produces at the socket instead of an answer, and what `CurlTransport` then reports:
///
/// | fault | what the server does | `URLError` |
/// |---|---|---|
/// | ``closeWithoutResponse`` | reads the request, closes the connection cleanly with no byte of response | `.badServerResponse` -1011 |
/// | ``reset`` | reads the request, resets the connection (TCP RST) | `.networkConnectionLost` -1005 |
/// | ``malformedStatusLine`` | writes `HTTP/1.1 OK-ISH\r\n\r\n`, closes | `.badServerResponse` -1011 |
/// | ``malformedHeaders`` | writes a status line, then a header field holding a NUL byte, closes | `.badServerResponse` -1011 |
/// | ``malformedResponse(_:)`` | writes these bytes, closes | depends on the bytes |
/// | ``partialBody(sent:declared:)`` | sends headers with `Content-Length: declared`, `sent` bytes, then closes | `.networkConnectionLost` -1005 |
/// | ``noResponse`` | reads the request and never answers (until the server stops) | `.timedOut` -1001 after the client's timeout |
///
/// Raw-byte faults (the malformed ones) are written in the clear: over HTTPS the client sees a TLS failure instead.
///
/// ```swift
/// server.add(Stub(RequestPattern(.get, "/flaky"), fault: .reset))
/// ```
public enum StubFault: Sendable, Hashable, CustomStringConvertible {
    /// Close the connection without a response.
    case closeWithoutResponse
    /// Reset the connection (RST).
    case reset
    /// Send a status line that is not HTTP.
    case malformedStatusLine
    /// Send a valid status line followed by a header field that is not valid.
    case malformedHeaders
    /// Send these bytes as the response, then close.
    case malformedResponse(Data)
    /// Announce `declared` body bytes, send `sent` of them (generated, see ``StubBody/generated(length:)``), close.
    case partialBody(sent: Int, declared: Int)
    /// Never answer; the connection stays open until the client gives up or the server stops.
    case noResponse

    /// The bytes a raw-byte fault writes, or `nil` for the other faults.
    var rawBytes: Data? {
        switch self {
        case .malformedStatusLine: return Data("HTTP/1.1 OK-ISH\r\n\r\n".utf8)
        case .malformedHeaders: return Data("HTTP/1.1 200 OK\r\nX-Broken: a\u{0}b\r\nContent-Length: 2\r\n\r\nok".utf8)
        case .malformedResponse(let bytes): return bytes
        default: return nil
        }
    }

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .closeWithoutResponse: return "close without response"
        case .reset: return "connection reset"
        case .malformedStatusLine: return "malformed status line"
        case .malformedHeaders: return "malformed headers"
        case .malformedResponse(let bytes): return "malformed response (\(bytes.count) bytes)"
        case .partialBody(let sent, let declared): return "partial body (\(sent) of \(declared) bytes)"
        case .noResponse: return "no response"
        }
    }
}
