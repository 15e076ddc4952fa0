import Foundation
import TapedeckCore

/// Where a replay sends what an MCP server pushed on a session's `GET` event stream: the open stream's body, fed as
/// the replay goes (an in-process transfer's chunks, a served connection's relayed body).
package protocol PushStream: AnyObject, Sendable {
    /// Sends `data` after whatever was sent before.
    func send(_ data: Data)
    /// Ends the body, complete.
    func end()
}

/// The `GET` event streams of the MCP sessions a replay answers (``SessionPushes``): each stays open, as a live
/// server's does, until its session's `DELETE`, its client leaving or the replay ending, and carries what the server
/// pushed during each call when that call is replayed. A session is named by the `Mcp-Session-Id` its requests carry
/// (the replay gives every session its own, ``MCPSessionIDs``); messages for a session whose stream is not open yet
/// wait for it, as a client that opens its stream just after its first call would still have been sent them live.
///
/// ```swift
/// let streams = SessionPushStreams<RelayedBody>()
/// streams.open(session, stream: body, start: pushes.streamStart(getIndex))     // the client's GET
/// streams.push(pushes.pushes(for: callIndex, answering: liveBody)?.events ?? [], to: session, scale: nil)   // a call
/// streams.close(session)                                                          // its DELETE
/// ```
package final class SessionPushStreams<Stream: PushStream>: Sendable {
    private struct Session {
        var stream: Stream?
        var waiting: [Data] = []
    }

    /// Messages kept for a session whose stream is not open, the newest.
    static var waitingLimit: Int { 1_000 }
    /// The longest a call's answer replayed at once waits after its pushes (``SessionPushes/CallPushes/answerGap(atMost:)``).
    package static var answerGapLimit: TimeInterval { 0.25 }

    private let sessions = Locked<[String: Session]>([:])

    package init() {}

    /// The session a request belongs to: its `Mcp-Session-Id`, or the empty name when it has none.
    package static func session(of headers: HTTPHeaders) -> String {
        headers[MCPSessionIDs.header] ?? ""
    }

    /// Makes `stream`, which nothing reads yet, `session`'s stream (ending one it had open: a client that reconnects
    /// has left the old one); it is sent `start` and then what was waiting for it.
    package func open(_ session: String, stream: Stream, start: Data) {
        let replaced = sessions.withLock { sessions -> Stream? in
            var state = sessions[session] ?? Session()
            // Under the lock, so that nothing pushed from now on overtakes what was waiting: a stream nothing reads
            // yet takes bytes without calling out.
            if !start.isEmpty { stream.send(start) }
            for message in state.waiting { stream.send(message) }
            state.waiting = []
            defer { state.stream = stream; sessions[session] = state }
            return state.stream
        }
        replaced?.end()
    }

    /// Sends `events` on `session`'s stream: each at its recorded time after now multiplied by `scale`, or all at
    /// once when `scale` is `nil`. Returns the stream they went to when they were sent at once, for the call's answer
    /// to wait until they are out.
    @discardableResult
    package func push(_ events: [SessionPushes.Event], to session: String, scale: Double?) -> Stream? {
        guard !events.isEmpty else { return nil }
        guard let scale else { return send(events.map(\.bytes), to: session) }
        let started = ContinuousClock.now
        Task { [self] in
            for event in events {
                try? await Task.sleep(until: started + .microseconds(Int64(event.after * scale * 1_000_000)), clock: .continuous)
                send([event.bytes], to: session)
            }
        }
        return nil
    }

    /// Ends `session`'s stream (its `DELETE` was answered).
    package func close(_ session: String) {
        let stream = sessions.withLock { $0.removeValue(forKey: session)?.stream }
        stream?.end()
    }

    /// Forgets `stream` when it is still `session`'s (its client went away).
    package func forget(_ stream: Stream, of session: String) {
        sessions.withLock { sessions in
            if sessions[session]?.stream === stream { sessions[session]?.stream = nil }
        }
    }

    /// Ends every open stream (the replay is over).
    package func closeAll() {
        let streams = sessions.withLock { sessions -> [Stream] in
            defer { sessions = [:] }
            return sessions.values.compactMap(\.stream)
        }
        for stream in streams { stream.end() }
    }

    /// Hands `messages` to the session's open stream, or keeps them for it.
    @discardableResult
    private func send(_ messages: [Data], to session: String) -> Stream? {
        let stream = sessions.withLock { sessions -> Stream? in
            if let stream = sessions[session]?.stream { return stream }
            var state = sessions[session] ?? Session()
            state.waiting.append(contentsOf: messages)
            if state.waiting.count > Self.waitingLimit { state.waiting.removeFirst(state.waiting.count - Self.waitingLimit) }
            sessions[session] = state
            return nil
        }
        // Outside the lock: sending may wake the stream's reader (a suspended connection, a waiting task).
        for message in messages { stream?.send(message) }
        return stream
    }
}
