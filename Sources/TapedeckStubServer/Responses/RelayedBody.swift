import CMicroHTTPD
import Foundation
import TapedeckCore
import TapedeckCassette
import TapedeckCurl

/// A response body sent while it is still arriving: the recording proxies answer with one as soon as the upstream's
/// response head is in, then hand it each chunk of the body as the upstream sends it, so an event stream reaches the
/// client at its live pace and a large download is relayed without being held whole. The connection waits
/// (suspended, holding no daemon thread) whenever the client has been sent everything handed over so far.
final class RelayedBody: Sendable {
    private struct State {
        var pending: [Data] = []
        /// Bytes of `pending[0]` already sent.
        var offset = 0
        var ending: Ending?
        /// The connection waiting for bytes, to resume when some come.
        var waiting: (ConnectionHandle, StubServerCore)?
        /// Bytes handed to the client so far.
        var sent: Int64 = 0
        /// Bytes handed over by ``append(_:)`` so far, sent or not.
        var received: Int64 = 0
        /// The body's length when it is sent with a `Content-Length`: its last byte waits for ``end(_:)``.
        var length: Int64?
        /// What to do when the client goes away before the body ended.
        var onAbandon: (@Sendable () -> Void)?
        /// What to do once the client has been sent the first `count` bytes (or the body ended, or was abandoned).
        var onSent: [(count: Int64, handler: @Sendable () -> Void)] = []
    }

    enum Ending {
        /// The body is complete.
        case finished
        /// The upstream failed after the head: the client's connection is dropped, as the upstream's was.
        case failed
    }

    private let state = Locked(State())
    /// The upstream transfer's window: bytes handed over count in, bytes sent to the client count out, so a client
    /// slower than the upstream pauses the upstream instead of piling the body up here.
    let window: ReceiveWindow

    /// Bytes of the body held for the client before the upstream is paused.
    static let windowLimit = 1 << 20

    init(window: ReceiveWindow = ReceiveWindow(limit: RelayedBody.windowLimit)) {
        self.window = window
    }

    /// Sends the body with a `Content-Length` of `length`, holding its last byte back until ``end(_:)``: the client
    /// then has the whole body only once the exchange is recorded, as a chunked body's last chunk waits for the end.
    func holdsLastByte(ofLength length: Int64) {
        state.withLock { $0.length = length }
    }

    /// Hands `data` to the client (after whatever came before it).
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        let waiting = state.withLock { state -> (ConnectionHandle, StubServerCore)? in
            guard state.ending == nil else { return nil }
            state.pending.append(data)
            state.received += Int64(data.count)
            window.hold(data.count)
            defer { state.waiting = nil }
            return state.waiting
        }
        if let (connection, core) = waiting { core.resume(connection) }
    }

    /// Whether `length` bytes (a body's whole length) have been handed over; `false` for an unknown length.
    func hasReceived(length: Int64?) -> Bool {
        guard let length else { return false }
        return state.withLock { $0.received >= length }
    }

    /// The whole body, taken out, when it ended complete before any of it was read; `nil` otherwise.
    func takeWhole() -> Data? {
        state.withLock { state -> Data? in
            guard case .finished? = state.ending, state.sent == 0, state.offset == 0 else { return nil }
            defer { state.pending = [] }
            guard state.pending.count > 1 else { return state.pending.first ?? Data() }
            var whole = Data(capacity: Int(state.received))
            for chunk in state.pending { whole.append(chunk) }
            return whole
        }
    }

    /// Runs `handler` once every byte handed over so far has been sent to the client, or the body has ended or been
    /// abandoned; at once when that is already so.
    func whenSent(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.ending == nil, state.sent < state.received else { return true }
            state.onSent.append((state.received, handler))
            return false
        }
        if now { handler() }
    }

    /// Takes out the ``whenSent(_:)`` handlers due: those whose bytes are sent, or all of them once the body ended.
    private static func due(_ state: inout State) -> [@Sendable () -> Void] {
        guard !state.onSent.isEmpty else { return [] }
        let ended = state.ending != nil
        let due = state.onSent.filter { ended || $0.count <= state.sent }.map(\.handler)
        if !due.isEmpty { state.onSent.removeAll { ended || $0.count <= state.sent } }
        return due
    }

    /// Runs `handler` when the client's connection goes away before the body ended (see ``abandoned()``).
    func whenAbandoned(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onAbandon = handler }
    }

    /// The response sending this body was released (libmicrohttpd frees it when its connection closes): when the body
    /// had not ended, its client went away, and the handler of ``whenAbandoned(_:)`` runs.
    func abandoned() {
        let (handler, sent) = state.withLock { state -> ((@Sendable () -> Void)?, [@Sendable () -> Void]) in
            defer { state.onAbandon = nil; state.onSent = [] }
            return (state.ending == nil ? state.onAbandon : nil, state.onSent.map(\.handler))
        }
        handler?()
        for handler in sent { handler() }
    }

    /// Ends the body: complete, or cut off so that the client sees the upstream's failure.
    func end(_ ending: Ending) {
        let (waiting, sent) = state.withLock { state -> ((ConnectionHandle, StubServerCore)?, [@Sendable () -> Void]) in
            if state.ending == nil { state.ending = ending }
            defer { state.waiting = nil }
            return (state.waiting, Self.due(&state))
        }
        if let (connection, core) = waiting { core.resume(connection) }
        for handler in sent { handler() }
    }

    /// libmicrohttpd's content reader: copies what has arrived into `buffer`, or suspends `connection` until more
    /// does (returning 0, which libmicrohttpd takes as "nothing yet"); see `MHD_ContentReaderCallback`.
    func read(into buffer: UnsafeMutableRawBufferPointer, connection: ConnectionHandle, core: StubServerCore) -> Int {
        // A stopping server resumes every connection and suspends none: what was not sent is cut off.
        if core.isStopping { return tdk_mhd_reader_end_with_error() }
        var sentHandlers: [@Sendable () -> Void] = []
        defer { for handler in sentHandlers { handler() } }
        let read = state.withLock { state -> Int in
            var written = 0
            var allowed = buffer.count
            if state.ending == nil, let length = state.length { allowed = Int(min(Int64(allowed), max(0, length - 1 - state.sent))) }
            while written < allowed, !state.pending.isEmpty {
                let chunk = state.pending[0]
                let count = min(allowed - written, chunk.count - state.offset)
                chunk.withUnsafeBytes { bytes in
                    (buffer.baseAddress! + written).copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                written += count
                state.offset += count
                if state.offset == chunk.count {
                    state.pending.removeFirst()
                    state.offset = 0
                }
            }
            state.sent += Int64(written)
            sentHandlers = Self.due(&state)
            if written > 0 { return written }
            switch state.ending {
            case .finished?: return tdk_mhd_reader_end_of_stream()
            case .failed?: return tdk_mhd_reader_end_with_error()
            case nil:
                // Under the lock (bytes held back wait for the end, which resumes the connection too), so that bytes appended from now on find the connection to resume.
                state.waiting = (connection, core)
                core.suspendUntilStop(connection)
                return 0
            }
        }
        if read > 0 { window.release(read) }
        return read
    }
}

/// A served MCP session's `GET` stream is a relayed body the replay feeds (``SessionPushStreams``).
extension RelayedBody: PushStream {
    func send(_ data: Data) { append(data) }
    func end() { end(.finished) }
}
