import Foundation
import TapedeckCore

/// The `Mcp-Session-Id` each replayed MCP session is given. An MCP server over streamable HTTP names a session in
/// the answer to `initialize`, and the client sends that id with every later request. A cassette replayed to many
/// sessions (a test suite opens one per test) must not give them all one id: a client keeping two sessions apart by
/// their ids would mix them up, and a served cassette could not tell whose event stream a message belongs on.
///
/// So an answer that carries a session id carries the caller's own when the request names one, and otherwise (a new
/// session) the recorded id the first time it is handed out, then the recorded id with `-2`, `-3`, … appended. The
/// client's session id is never compared when matching; it only picks whose answer this is.
///
/// ```swift
/// var sessions = MCPSessionIDs()
/// sessions.answer(&response, request: initialize)   // "4f1c…" as recorded
/// sessions.answer(&response, request: initialize)   // "4f1c…-2": a second session
/// ```
struct MCPSessionIDs: Sendable {
    /// The header naming the session, in requests and in answers.
    static let header = "Mcp-Session-Id"

    /// Every id handed to a new session so far.
    private var handedOut: Set<String> = []

    /// Puts the caller's session id in `response`, or a fresh one for a new session; leaves a response without a
    /// session id alone.
    mutating func answer(_ response: inout Interaction.Response, request: Interaction.Request) {
        guard let recorded = response.headers[Self.header] else { return }
        if let callers = request.headers[Self.header] {
            if callers != recorded { response.headers[Self.header] = callers }
            return
        }
        var given = recorded
        var session = handedOut.count + 1
        while handedOut.contains(given) {
            given = "\(recorded)-\(session)"
            session += 1
        }
        handedOut.insert(given)
        if given != recorded { response.headers[Self.header] = given }
    }
}
