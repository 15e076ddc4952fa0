import Foundation

/// A failure a recorded interaction implies: what the same request could have met instead of its recorded answer.
/// Each builds, from the recorded interaction, the ``ReplayFault/Action/answer(_:)`` that replaces it, or says why it
/// does not apply (a reset in the middle of the body of a `204`); a ``FaultSweepPlan`` pairs them with interactions.
///
/// | fault | the replaced interaction | `URLError` / status the client sees |
/// |---|---|---|
/// | ``timeout`` | fails before the head | `.timedOut` -1001 |
/// | ``resetBeforeHead`` | fails before the head | `.networkConnectionLost` -1005 |
/// | ``resetMidBody`` | sends the head and the first half of the body, then fails | `.networkConnectionLost` -1005 |
/// | ``truncatedBody`` | completes with the first half of the body (`Content-Length` says so) | the recorded status |
/// | ``serverError`` | answers `500` with a short text body | `500` |
/// | ``serviceUnavailable`` | answers `503` with `Retry-After: 1` | `503` |
/// | ``mismatchedBody`` | keeps status and headers, the body is not what `Content-Type` says | the recorded status |
/// | ``connectionRefused`` | fails before the head | `.cannotConnectToHost` -1004 |
///
/// A recorded WebSocket conversation has faults of its own (``webSocketFaults``), each after the middle of the
/// server's frames (its frame ⌈k/2⌉ of k); they apply to conversations only, and ``conversationFault(replacing:at:)``
/// builds the ``ConversationFault`` that carries one out:
///
/// | fault | the server, after its frame ⌈k/2⌉ | what the client sees |
/// |---|---|---|
/// | ``webSocketDrop`` | closes the TCP connection without a close frame | an abnormal end, 1006 |
/// | ``webSocketInternalError`` | closes with 1011 | close 1011 and its reason |
/// | ``webSocketGoingAway`` | closes with 1001 | close 1001 and its reason |
/// | ``webSocketTryAgainLater`` | closes with 1013 | close 1013 and its reason |
/// | ``webSocketStall`` | sends nothing more and keeps the socket open | silence: only its own timeouts end it |
///
/// Over a stub server's sockets the same answers become socket behaviour (a timeout is a server that never
/// answers, so the client's own timeout fires; a connection refused is a `502` naming the error, which a
/// listening server cannot otherwise produce).
///
/// ```swift
/// let fault = try InteractionFault(named: "reset mid-body")
/// switch fault.answer(replacing: interaction) {
/// case .success(let outcome): configuration.faults = [ReplayFault(interaction: 3, action: .answer(outcome), times: 1)]
/// case .failure(let notApplicable): print(notApplicable.reason)
/// }
/// ```
public enum InteractionFault: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// The request times out before any answer.
    case timeout
    /// The connection is reset before the response head.
    case resetBeforeHead
    /// The connection is reset after the head and half the body.
    case resetMidBody
    /// The response completes with only the first half of its body.
    case truncatedBody
    /// The server answers `500 Internal Server Error`.
    case serverError
    /// The server answers `503 Service Unavailable` with `Retry-After: 1`.
    case serviceUnavailable
    /// The body is not what its `Content-Type` says (an HTML error page where JSON was announced).
    case mismatchedBody
    /// The host cannot be reached: name resolution or the connection fails.
    case connectionRefused
    /// A WebSocket conversation's connection drops (no close frame) in the middle of the server's frames.
    case webSocketDrop
    /// A WebSocket server closes with 1011 (internal error) in the middle of its frames.
    case webSocketInternalError
    /// A WebSocket server closes with 1001 (going away) in the middle of its frames.
    case webSocketGoingAway
    /// A WebSocket server closes with 1013 (try again later) in the middle of its frames.
    case webSocketTryAgainLater
    /// A WebSocket server stops sending in the middle of its frames and keeps the connection open.
    case webSocketStall

    /// The `Retry-After` value of ``serviceUnavailable``, in seconds.
    public static let retryAfterSeconds = 1

    /// The name used in test case names and reports: `timeout`, `reset before the head`, `reset mid-body`,
    /// `body cut short`, `500`, `503 with Retry-After`, `body not its Content-Type`, `connection refused`,
    /// `WebSocket dropped`, `WebSocket close 1011`, `WebSocket close 1001`, `WebSocket close 1013`, `WebSocket stalled`.
    public var description: String {
        switch self {
        case .timeout: "timeout"
        case .resetBeforeHead: "reset before the head"
        case .resetMidBody: "reset mid-body"
        case .truncatedBody: "body cut short"
        case .serverError: "500"
        case .serviceUnavailable: "503 with Retry-After"
        case .mismatchedBody: "body not its Content-Type"
        case .connectionRefused: "connection refused"
        case .webSocketDrop: "WebSocket dropped"
        case .webSocketInternalError: "WebSocket close 1011"
        case .webSocketGoingAway: "WebSocket close 1001"
        case .webSocketTryAgainLater: "WebSocket close 1013"
        case .webSocketStall: "WebSocket stalled"
        }
    }

    /// The fault called `name`: its identifier (`resetMidBody`) or its description (`reset mid-body`), in any case,
    /// with spaces, `-` and `_` ignored.
    ///
    /// - Throws: ``FaultSweepError/unknownFault(_:known:)`` naming the known faults.
    public init(named name: String) throws(FaultSweepError) {
        let wanted = Self.folded(name)
        guard let fault = Self.allCases.first(where: { Self.folded($0.rawValue) == wanted || Self.folded($0.description) == wanted })
        else { throw FaultSweepError.unknownFault(name, known: Self.allCases.map(\.rawValue)) }
        self = fault
    }

    private static func folded(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// Why a fault does not apply to an interaction.
    public struct NotApplicable: Error, Sendable, Hashable {
        /// For example `a 204 has no body to cut`.
        public var reason: String
    }

    /// What replaces `interaction` under this fault, or why the fault does not apply to it. `body` holds the
    /// recorded response body's bytes (a sidecar body must be read first); by default the inline bytes. A WebSocket
    /// fault keeps the recorded answer (the `101`) and changes the conversation: see
    /// ``conversationFault(replacing:at:)``.
    public func answer(replacing interaction: Interaction, body: Data? = nil) -> Result<Interaction.Outcome, NotApplicable> {
        let recorded = interaction.response
        func failure(_ code: URLError.Code) -> Result<Interaction.Outcome, NotApplicable> {
            if interaction.failure?.code == code.rawValue {
                return .failure(NotApplicable(reason: "the recording already failed with \(code.rawValue)"))
            }
            return .success(.failure(Interaction.Failure(code: code.rawValue, message: "injected fault: \(self) (fault sweep)")))
        }
        switch self {
        case .timeout: return failure(.timedOut)
        case .resetBeforeHead: return failure(.networkConnectionLost)
        case .connectionRefused: return failure(.cannotConnectToHost)
        case .serverError, .serviceUnavailable:
            let status = self == .serverError ? 500 : 503
            if recorded?.statusCode == status { return .failure(NotApplicable(reason: "the recording already is a \(status)")) }
            var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8"]
            if self == .serviceUnavailable { headers["Retry-After"] = String(Self.retryAfterSeconds) }
            return .success(.response(Self.replaced(recorded, status: status, headers: headers, body: Data("injected fault: \(self)\n".utf8))))
        case .resetMidBody, .truncatedBody:
            guard let recorded else { return .failure(NotApplicable(reason: "the recording is a transport error, with no body")) }
            guard let bytes = body ?? recorded.body.inlineData else {
                return .failure(NotApplicable(reason: "the body is in a sidecar that could not be read"))
            }
            let minimum = self == .resetMidBody ? 1 : 2
            guard bytes.count >= minimum else {
                return .failure(NotApplicable(reason: "a \(recorded.statusCode) with \(bytes.count) body byte(s) has no body to cut"))
            }
            var response = recorded
            response.body = CassetteBody(bytes.prefix(bytes.count / 2), contentEncoding: recorded.body.contentEncoding)
            response.chunks = nil
            if self == .resetMidBody {
                response.interruption = Interaction.Failure(code: URLError.Code.networkConnectionLost.rawValue,
                                                            message: "injected fault: \(self) (fault sweep)")
            } else {
                Self.setLength(of: &response)
            }
            return .success(.response(response))
        case .webSocketDrop, .webSocketInternalError, .webSocketGoingAway, .webSocketTryAgainLater, .webSocketStall:
            return conversationFault(replacing: interaction).map { _ in interaction.outcome }
        case .mismatchedBody:
            guard let recorded else { return .failure(NotApplicable(reason: "the recording is a transport error, with no body")) }
            guard let type = recorded.headers["Content-Type"] else {
                return .failure(NotApplicable(reason: "the response has no Content-Type to contradict"))
            }
            guard let wrong = Self.contradiction(of: type) else {
                return .failure(NotApplicable(reason: "any body is a valid \(type)"))
            }
            return .success(.response(Self.replaced(recorded, status: recorded.statusCode, headers: recorded.headers, body: wrong)))
        }
    }

    /// A body that `contentType` does not describe: an HTML error page for JSON and most types (what a proxy or a
    /// captive portal sends), JSON for HTML and XML, bytes that are not UTF-8 for other text; `nil` for
    /// `application/octet-stream`.
    static func contradiction(of contentType: String) -> Data? {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if type == "application/octet-stream" { return nil }
        if type.hasSuffix("html") || type.hasSuffix("xml") { return Data(#"{"error":"not markup"}"#.utf8) }
        if type.hasPrefix("text/") && type != "text/html" { return Data([0xC3, 0x28, 0xFF, 0xFE, 0x00]) }
        return Data("<html><head><title>502 Bad Gateway</title></head><body>upstream error</body></html>\n".utf8)
    }

    /// `recorded` (or a new response) with another status, headers and body; a recorded `Content-Encoding` and
    /// chunk timing are dropped, `Content-Length` follows the new body.
    private static func replaced(_ recorded: Interaction.Response?, status: Int, headers: HTTPHeaders, body: Data) -> Interaction.Response {
        var response = recorded ?? Interaction.Response(statusCode: status)
        response.statusCode = status
        response.reasonPhrase = status == recorded?.statusCode ? response.reasonPhrase : ""
        response.headers = headers
        response.headers.remove(name: "Content-Encoding")
        response.body = CassetteBody(body)
        response.chunks = nil
        response.interruption = nil
        response.isTemplated = false
        setLength(of: &response)
        return response
    }

    /// Makes a recorded `Content-Length` say the body's length.
    private static func setLength(of response: inout Interaction.Response) {
        if response.headers["Content-Length"] != nil { response.headers["Content-Length"] = String(response.body.byteCount) }
    }
}
