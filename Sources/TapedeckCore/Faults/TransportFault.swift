import Foundation

/// A failure of an exchange instead of its answer, the one fault model of Tapedeck: a stub server carries it out at
/// the socket (`Stub(pattern, fault: .reset)`), and in-process replay (a `ReplayFault` of a cassette) delivers what
/// `CurlTransport` reports when a server does it, so a test sees the same `URLError` either way:
///
/// | fault | what the server does | `URLError` / what the client sees |
/// |---|---|---|
/// | ``noResponse`` | reads the request and never answers (until the server stops) | `.timedOut` -1001 after the client's timeout |
/// | ``reset`` | reads the request, resets the connection (TCP RST) | `.networkConnectionLost` -1005 |
/// | ``closeWithoutResponse`` | reads the request, closes the connection cleanly with no byte of response | `.badServerResponse` -1011 |
/// | ``malformedStatusLine`` | writes `HTTP/1.1 OK-ISH\r\n\r\n`, closes | `.badServerResponse` -1011 |
/// | ``malformedHeaders`` | writes a status line, then a header field holding a NUL byte, closes | `.badServerResponse` -1011 |
/// | ``malformedResponse(_:)`` | writes these bytes, closes | depends on the bytes |
/// | ``partialBody(sent:declared:)`` | sends headers with `Content-Length: declared`, `sent` bytes, then closes | `.networkConnectionLost` -1005 |
/// | ``stall(sent:)`` | sends a chunked head and `sent` bytes, then nothing (until the server stops) | `.timedOut` -1001 after the client's timeout |
/// | ``status(_:)`` | answers this status with an empty body | the status |
///
/// Body bytes are the generated pattern of the stub server's `StubBody.generated(length:)` (byte `i` is `i % 251`).
/// Raw-byte faults (the malformed ones) are written in the clear: over HTTPS the client sees a TLS failure instead.
/// In process, a fault that ends in the client's timeout fails at once.
///
/// Its JSON form is an object naming the fault, with the members that fault takes:
///
/// ```swift
/// server.add(Stub(RequestPattern(.get, "/flaky"), fault: .reset))
/// let fault = try JSONDecoder().decode(TransportFault.self, from: Data(#"{"fault": "partialBody", "partialBodySent": 3, "partialBodyDeclared": 9}"#.utf8))
/// // {"fault": "status", "status": 503}, {"fault": "stall", "partialBodySent": 10},
/// // {"fault": "malformedResponse", "body": "HTTP/1.1 2"} (or "base64Body"), {"fault": "noResponse"}, …
/// ```
public enum TransportFault: Sendable, Hashable, CustomStringConvertible {
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
    /// Announce `declared` body bytes, send `sent` of them, close.
    case partialBody(sent: Int, declared: Int)
    /// Never answer; the connection stays open until the client gives up or the server stops.
    case noResponse
    /// Send the head of a chunked `200` and `sent` body bytes, then nothing more.
    case stall(sent: Int)
    /// Answer this status (200–599) with an empty body.
    case status(Int)

    /// The `URLError` code a client meets before any response head, or `nil` when the fault sends a head (or, for
    /// ``malformedResponse(_:)``, bytes that may be one).
    package var codeBeforeHead: URLError.Code? {
        switch self {
        case .noResponse: .timedOut
        case .reset: .networkConnectionLost
        case .closeWithoutResponse, .malformedStatusLine, .malformedHeaders: .badServerResponse
        case .malformedResponse, .partialBody, .stall, .status: nil
        }
    }

    /// The bytes a raw-byte fault writes, or `nil` for the other faults.
    package var rawBytes: Data? {
        switch self {
        case .malformedStatusLine: Data("HTTP/1.1 OK-ISH\r\n\r\n".utf8)
        case .malformedHeaders: Data("HTTP/1.1 200 OK\r\nX-Broken: a\u{0}b\r\nContent-Length: 2\r\n\r\nok".utf8)
        case .malformedResponse(let bytes): bytes
        default: nil
        }
    }

    /// The statuses a server can answer with: an informational `1xx` is a promise of another response to come.
    package static let answerableStatuses = 200...599

    /// Why `status` cannot be answered (see ``answerableStatuses``), or `nil` when it can.
    package static func statusProblem(_ status: Int) -> String? {
        if answerableStatuses.contains(status) { return nil }
        if (100...199).contains(status) {
            return "\(status) is an informational status, which a stub cannot answer with (the client would wait for the "
                + "final response for ever); use 200 to 599"
        }
        return "must be between 200 and 599, got \(status)"
    }

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .closeWithoutResponse: "close without response"
        case .reset: "connection reset"
        case .malformedStatusLine: "malformed status line"
        case .malformedHeaders: "malformed headers"
        case .malformedResponse(let bytes): "malformed response (\(bytes.count) bytes)"
        case .partialBody(let sent, let declared): "partial body (\(sent) of \(declared) bytes)"
        case .noResponse: "no response"
        case .stall(let sent): "stall after \(sent) body bytes"
        case .status(let status): "status \(status)"
        }
    }
}
