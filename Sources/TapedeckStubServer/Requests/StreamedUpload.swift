import Foundation
import TapedeckCore

/// A request body that a recording proxy sends upstream while it is still arriving: the daemon thread hands over
/// each piece libmicrohttpd reads, the upstream transfer pulls them (``body()``). When more than ``limit`` bytes wait
/// for the upstream, the client's connection is suspended (libmicrohttpd then stops reading it, and TCP slows the
/// client) until the upstream has taken half of them.
final class StreamedUpload: Sendable {
    private struct State {
        var pieces: [Data] = []
        var waiting = 0
        var ended = false
        /// The upstream exchange ended before the body did (an upstream that answered early): the rest is dropped.
        var discarding = false
        var failure: URLError?
        /// The upstream transfer waiting for the next piece.
        var reader: CheckedContinuation<Data?, any Error>?
        /// The client's connection, suspended while too much waits.
        var paused: (ConnectionHandle, StubServerCore)?
    }

    /// Bodies longer than this (or chunked) are streamed; shorter ones are read whole first.
    static let threshold: Int64 = 64 * 1024
    /// Bytes that may wait for the upstream before the client is paused.
    static let limit = 1 << 20
    private let state = Locked(State())
    /// The body's length (the client's `Content-Length`), or `nil` when chunked.
    let length: Int64?

    init(length: Int64?) {
        self.length = length
    }

    /// Whether the body's last byte has arrived (or the client went away).
    var isEnded: Bool { state.withLock { $0.ended || $0.failure != nil } }

    /// Hands over the next piece, from `connection`'s daemon thread, pausing the connection when too much waits.
    func append(_ bytes: UnsafeRawBufferPointer, from connection: ConnectionHandle, core: StubServerCore) {
        let piece = Data(bytes)
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            if state.discarding { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            state.pieces.append(piece)
            state.waiting += piece.count
            if state.waiting > Self.limit, state.paused == nil {
                // Under the lock, so that the reader that takes the pause back finds the connection suspended.
                state.paused = (connection, core)
                core.suspendUntilStop(connection)
            }
            return nil
        }
        reader?.resume(returning: piece)
    }

    /// The upstream exchange ended, whether or not it took the whole body (an upstream may answer before reading
    /// it): what is left of the body is dropped as it comes, and a paused client goes on, so that its request
    /// completes and it gets the answer.
    func stopReading() {
        let paused = state.withLock { state -> (ConnectionHandle, StubServerCore)? in
            state.discarding = true
            state.pieces = []
            state.waiting = 0
            defer { state.paused = nil }
            return state.paused
        }
        if let (connection, core) = paused { core.resume(connection) }
    }

    /// The client sent the body's last byte.
    func finish() {
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            state.ended = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
    }

    /// The client went away before the body ended: the upstream transfer fails, as the client's connection did.
    func fail(_ error: URLError) {
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard !state.ended, state.failure == nil else { return nil }
            state.failure = error
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(throwing: error)
    }

    /// The next piece for the upstream, `nil` at the end.
    private func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            let (result, resume) = state.withLock { state -> (Result<Data?, any Error>?, (ConnectionHandle, StubServerCore)?) in
                if !state.pieces.isEmpty {
                    let piece = state.pieces.removeFirst()
                    state.waiting -= piece.count
                    var resume: (ConnectionHandle, StubServerCore)?
                    if state.waiting <= Self.limit / 2 {
                        resume = state.paused
                        state.paused = nil
                    }
                    return (.success(piece), resume)
                }
                if let failure = state.failure { return (.failure(failure), nil) }
                if state.ended { return (.success(nil), nil) }
                state.reader = continuation
                return (nil, nil)
            }
            if let (connection, core) = resume { core.resume(connection) }
            if let result { continuation.resume(with: result) }
        }
    }

    /// The body as the upstream request sends it: ``length`` bytes, or chunked. It can be read once: a proxy sends
    /// each request upstream once, following no redirect.
    func body() -> HTTPBodyStream {
        HTTPBodyStream(length: length) { [self] in
            AsyncThrowingStream(unfolding: { try await self.next() })
        }
    }
}
