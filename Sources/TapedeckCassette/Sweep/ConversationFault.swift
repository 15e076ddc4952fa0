import Foundation

/// A failure of the server's side of a recorded WebSocket conversation: the server plays its recorded frames up to
/// its frame `N`, then the connection drops, the server closes with a code and a reason, or the server stalls. The
/// same fault applies in process (`WebSocket.connect(to:through:)` over a `CassetteTransport`) and on the stub
/// server's sockets (a served cassette), so any client meets it.
///
/// | ending | what the server does after its frame `N` | what a client sees |
/// |---|---|---|
/// | ``Ending/drop`` | closes the TCP connection without a close frame | the messages up to `N`, then an abnormal end (1006) |
/// | ``Ending/close(_:)`` | sends a close with the code and reason (1011, 1001, 1013, …) | the messages up to `N`, then that close |
/// | ``Ending/stall`` | sends nothing more (no message, pong or close) and keeps the socket open | the messages up to `N`, then silence: only the client's own timeouts end it |
///
/// Frame `N` counts the server's frames other than its close (messages, pings, pongs), from 1; `0` is right after
/// the `101`. The client's recorded frames before the server's frame `N` are matched as in any replay.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.conversationFaults = [
///     ConversationFault(interaction: 0, after: 2, .close(WebSocketClose(code: .internalError, reason: "db down")), times: 1),
/// ]
/// ```
///
/// ``InteractionFault`` plans the ones a fault sweep tries (``InteractionFault/webSocketDrop`` and the others), each
/// after the middle of the server's frames.
public struct ConversationFault: Sendable, Hashable, CustomStringConvertible {
    /// How the server's side ends after its frame `N`.
    public enum Ending: Sendable, Hashable {
        /// The connection is closed without a close frame.
        case drop
        /// The server closes with this code and reason.
        case close(WebSocketClose)
        /// The server sends nothing more and keeps the connection open.
        case stall
    }

    /// The interaction index it applies to, or `nil` for every WebSocket conversation.
    public var interaction: Int?
    /// How many of the server's frames (other than its close) are played before the fault: `0` for none.
    public var afterServerFrame: Int
    /// What happens then.
    public var ending: Ending
    /// How many times it fires, or `nil` for every time. A fault that fired puts the conversation back in line, so a
    /// client that connects again gets the recording.
    public var times: Int?

    /// A fault after the server's frame `serverFrame` of the conversation at `interaction` (every one when `nil`).
    public init(interaction: Int? = nil, after serverFrame: Int, _ ending: Ending, times: Int? = nil) {
        self.interaction = interaction
        afterServerFrame = serverFrame
        self.ending = ending
        self.times = times
    }

    /// `dropped after the server's frame 2`, `close 1011 "db down" after the server's frame 2`,
    /// `stalled right after the upgrade`.
    public var description: String {
        let place = afterServerFrame == 0 ? "right after the upgrade" : "after the server's frame \(afterServerFrame)"
        switch ending {
        case .drop: return "dropped \(place)"
        case .close(let close): return "\(close) \(place)"
        case .stall: return "stalled \(place)"
        }
    }

    /// The frames a replay of `transcript` plays under this fault: the recorded ones up to the server's frame `N`;
    /// for a close, then the server's close and the client's answer (a close with the same code). A drop or a stall
    /// happens when these run out (see ``ending``).
    ///
    /// - Throws: `NotApplicable` when the server sent fewer than `N` frames before its close.
    public func frames(of transcript: WebSocketTranscript) throws(InteractionFault.NotApplicable) -> [WebSocketTranscript.Frame] {
        let frames = transcript.frames
        let end = try cutIndex(in: transcript)
        var kept = Array(frames[..<end])
        if case .close(let close) = ending {
            let offset = kept.last?.offset ?? 0
            kept.append(.init(direction: .server, kind: .close(close), offset: offset))
            kept.append(.init(direction: .client, kind: .close(WebSocketClose(code: close.code)), offset: offset))
        }
        return kept
    }

    /// Where the fault cuts `transcript`: just after the server's frame `N`.
    private func cutIndex(in transcript: WebSocketTranscript) throws(InteractionFault.NotApplicable) -> Int {
        let served = transcript.frames.indices.filter { transcript.frames[$0].direction == .server && !transcript.frames[$0].kind.isClose }
        guard afterServerFrame >= 0, afterServerFrame <= served.count else {
            throw InteractionFault.NotApplicable(reason: "the server sent \(served.count) frame(s) before its close, not \(afterServerFrame)")
        }
        return afterServerFrame == 0 ? 0 : served[afterServerFrame - 1] + 1
    }

    /// Why this fault changes nothing in `transcript`, if it does not: the recording already ends that way there
    /// (cut off after the server's frame `N`, or closed there with the same code).
    func sameAsRecorded(in transcript: WebSocketTranscript) throws(InteractionFault.NotApplicable) {
        let end = try cutIndex(in: transcript)
        let next = transcript.frames[end...].first { $0.direction == .server }
        switch ending {
        case .drop where next == nil && !transcript.isComplete:
            throw InteractionFault.NotApplicable(reason: "the recording already ends \(transcript.cut ?? "there") without a close")
        case .close(let close):
            if case .close(let recorded)? = next?.kind, recorded.code == close.code {
                throw InteractionFault.NotApplicable(reason: "the recording already closes with \(close.code) there")
            }
        default:
            break
        }
    }

    /// The first of `faults` that applies to `playback` (a WebSocket conversation) and has firings left, counting its
    /// firing as ``ReplayFault`` counts its own and putting the conversation back in line, so that a client that
    /// connects again gets the recording. The in-process replay and a served cassette both fire conversation faults
    /// through this.
    package static func firing(_ faults: [ConversationFault], for playback: CassettePlayer.Playback, firings: inout [Int: Int],
                               player: inout CassettePlayer) -> ConversationFault? {
        guard playback.interaction.webSocket != nil else { return nil }
        return ReplayFault.firstFiring(faults, times: \.times, for: playback, firings: &firings, player: &player,
                                       applies: { $0.interaction == nil || $0.interaction == playback.index }, requeues: { _ in true })
    }
}

extension InteractionFault {
    /// The WebSocket faults: the ones that apply only to a recorded conversation.
    public static let webSocketFaults: [InteractionFault] = [
        .webSocketDrop, .webSocketInternalError, .webSocketGoingAway, .webSocketTryAgainLater, .webSocketStall,
    ]

    /// Whether this fault applies to WebSocket conversations only (``conversationFault(replacing:at:)``).
    public var isWebSocketFault: Bool { Self.webSocketFaults.contains(self) }

    /// The close reasons the close faults send.
    static func closeReason(_ code: WebSocketCloseCode) -> String { "injected fault: close \(code) (fault sweep)" }

    /// The ``ConversationFault`` this fault is for the conversation `interaction` holds, after the middle of the
    /// server's frames (its frame ⌈k/2⌉ of k, or right after the upgrade when it sent none before its close); or why
    /// it does not apply (a plain HTTP interaction, a recording that already ends that way there).
    public func conversationFault(replacing interaction: Interaction, at index: Int? = nil) -> Result<ConversationFault, NotApplicable> {
        guard isWebSocketFault else { return .failure(NotApplicable(reason: "\(self) is not a WebSocket fault")) }
        guard let transcript = interaction.webSocket else {
            return .failure(NotApplicable(reason: "a WebSocket fault, and this interaction is not a WebSocket conversation"))
        }
        let ending: ConversationFault.Ending = switch self {
        case .webSocketInternalError: .close(WebSocketClose(code: .internalError, reason: Self.closeReason(.internalError)))
        case .webSocketGoingAway: .close(WebSocketClose(code: .goingAway, reason: Self.closeReason(.goingAway)))
        case .webSocketTryAgainLater: .close(WebSocketClose(code: .tryAgainLater, reason: Self.closeReason(.tryAgainLater)))
        case .webSocketStall: .stall
        default: .drop
        }
        let served = transcript.frames.count(where: { $0.direction == .server && !$0.kind.isClose })
        let fault = ConversationFault(interaction: index, after: (served + 1) / 2, ending, times: 1)
        do throws(NotApplicable) {
            try fault.sameAsRecorded(in: transcript)
            return .success(fault)
        } catch {
            return .failure(error)
        }
    }
}

extension InteractionFault.NotApplicable: CustomStringConvertible {
    /// The reason.
    public var description: String { reason }
}

extension WebSocketTranscript.Kind {
    /// Whether this is a close frame.
    package var isClose: Bool {
        if case .close = self { return true }
        return false
    }
}
