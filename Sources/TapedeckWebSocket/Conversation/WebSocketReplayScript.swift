import TapedeckCassette

/// The frames a replay plays: a recorded conversation's, or what a `ConversationFault` leaves of them, and what the
/// server does once they run out (the recording's cut, or the fault's drop or stall).
package struct WebSocketReplayScript: Sendable, Hashable {
    /// What the server does after the last frame, when that is not the close handshake.
    package enum RunOut: Sendable, Hashable {
        /// The recording was cut off here (or ends with the close handshake): it ends as recorded.
        case asRecorded
        /// An injected drop: the connection closes without a close frame.
        case drop
        /// An injected stall: nothing more is sent, and the connection stays open.
        case stall
    }

    /// The frames, in order.
    package var frames: [WebSocketTranscript.Frame]
    /// What happens after them.
    package var runOut: RunOut

    /// The recorded frames as they are.
    package init(frames: [WebSocketTranscript.Frame]) {
        self.frames = frames
        runOut = .asRecorded
    }

    /// `recorded` under `fault` (as recorded when `nil`).
    ///
    /// - Throws: `InteractionFault.NotApplicable` when the recording has fewer server frames than the fault needs.
    package init(recorded: [WebSocketTranscript.Frame], fault: ConversationFault?) throws(InteractionFault.NotApplicable) {
        if let fault {
            frames = try fault.frames(of: WebSocketTranscript(frames: recorded))
        } else {
            frames = recorded
        }
        runOut = switch fault?.ending {
        case .drop?: .drop
        case .stall?: .stall
        case .close?, nil: .asRecorded
        }
    }
}
