import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckWebSocket

/// How a served cassette plays its WebSocket conversations to the clients that connect: how the client's frames
/// are compared with the recording, what closes a connection whose client sends something the recording does not
/// have, and the pacing of the server's frames.
///
/// ```swift
/// let server = try StubServer()
/// try server.serve(cassette: url, webSockets: WebSocketServing(matching: .json, mismatchCloseCode: WebSocketCloseCode(rawValue: 4000)))
/// // any client: ws://127.0.0.1:\(server.port)/chat
/// ```
public struct WebSocketServing: Sendable, Hashable {
    /// When the server's recorded frames go out.
    public enum Pacing: Sendable, Hashable {
        /// As soon as the client's frames before them arrived.
        case atOnce
        /// At their recorded times after the connection began, multiplied by `scale` (and never before the client's
        /// frames before them arrived).
        case recorded(scale: Double)
    }

    /// How the client's text is compared with the recording.
    public var matching: WebSocketFrameMatcher.Mode
    /// The close code sent to a client whose message matches nothing (1008, policy violation, by default).
    public var mismatchCloseCode: WebSocketCloseCode
    /// When the server's frames go out; `nil` (the default): as the served cassette's replay rules pace bodies (its
    /// stored `pacing`, or the configuration's `CassetteConfiguration.timing` when that is set), at once when
    /// they say nothing.
    public var pacing: Pacing?
    /// The largest frame and message accepted from a client (larger ones close with 1009).
    public var limits: WebSocketLimits

    /// The default: exact matching, 1008 on a near miss, frames paced as the cassette's bodies are, the default
    /// limits.
    public init(matching: WebSocketFrameMatcher.Mode = .exact, mismatchCloseCode: WebSocketCloseCode = .policyViolation,
                pacing: Pacing? = nil, limits: WebSocketLimits = WebSocketLimits()) {
        self.matching = matching
        self.mismatchCloseCode = mismatchCloseCode
        self.pacing = pacing
        self.limits = limits
    }

    /// These settings with ``pacing`` decided: as chosen, else as `timing` (the served cassette's) paces bodies.
    func pacing(following timing: ReplayTiming) -> WebSocketServing {
        var decided = self
        if decided.pacing == nil, let scale = timing.scale, scale > 0 { decided.pacing = .recorded(scale: scale) }
        return decided
    }
}

/// One recorded conversation about to be served on an upgraded connection.
struct ServedWebSocket: Sendable {
    /// The frames, as recorded or as a `ConversationFault` leaves them.
    var script: WebSocketReplayScript
    /// The recorded `101`'s headers (its subprotocol is offered back to a client that asks for it).
    var recordedHeaders: HTTPHeaders
    var matcher: WebSocketFrameMatcher
    var serving: WebSocketServing
    /// Where near misses and cuts are reported (the served cassette's summary).
    var report: @Sendable (String) -> Void
}

extension ServedWebSocket {
    /// The answer to an upgrade that plays `frames` under `fault` (as recorded when `nil`): the conversation, or a
    /// `500` saying why the fault cannot be played on it.
    static func action(frames: [WebSocketTranscript.Frame], fault: ConversationFault?, recordedHeaders: HTTPHeaders,
                       matcher: WebSocketFrameMatcher, serving: WebSocketServing,
                       report: @escaping @Sendable (String) -> Void) -> StubAction {
        do throws(InteractionFault.NotApplicable) {
            let script = try WebSocketReplayScript(recorded: frames, fault: fault)
            return .webSocket(ServedWebSocket(script: script, recordedHeaders: recordedHeaders, matcher: matcher, serving: serving,
                                              report: report))
        } catch {
            return .respond(.text("The WebSocket fault \"\(fault.map(String.init(describing:)) ?? "")\" cannot be played: \(error.reason)\n", status: 500))
        }
    }
}
