import Foundation
import TapedeckCurl
#if canImport(Glibc)
import Glibc
import TapedeckCore
#endif

/// The thread that owns one live connection: it reads and parses the server's frames, answers pings and closes
/// (``WebSocketSessionStateMachine``), writes what the user queued, and ends the connection. The user's side queues
/// frames under the lock and wakes the thread through a pipe; poll(2) waits on the socket and the pipe.
final class CurlWebSocketEngine: Sendable {
    private struct Shared {
        var machine = WebSocketSessionStateMachine()
        /// Encoded frames not yet handed to the connection.
        var outbound: [UInt8] = []
        var closeDeadline: ContinuousClock.Instant?
        var ending: WebSocketEnding?
        var finished = false
        var endingWaiters: [CheckedContinuation<WebSocketEnding, Never>] = []
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Outbound bytes above which `send` waits for the connection to take some.
    static let highWater = 1 << 20

    private let stream: CurlStreamConnection
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let shared = Locked(Shared())
    private let messages: AsyncThrowingStream<WebSocketMessage, Error>.Continuation
    private let limits: WebSocketLimits
    private let closeTimeout: Double
    private let observer: (@Sendable (WebSocketTrafficEvent) -> Void)?

    init(
        stream: CurlStreamConnection, limits: WebSocketLimits, closeTimeout: Double,
        messages: AsyncThrowingStream<WebSocketMessage, Error>.Continuation,
        observer: (@Sendable (WebSocketTrafficEvent) -> Void)?
    ) throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw URLError(.unknown, failingURL: stream.url, reason: "no pipe for the WebSocket's thread: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        self.stream = stream
        self.wakeRead = descriptors[0]
        self.wakeWrite = descriptors[1]
        self.limits = limits
        self.closeTimeout = closeTimeout
        self.messages = messages
        self.observer = observer
    }

    /// The pipe closes only when nobody can wake the thread any more: a descriptor closed earlier could be reused
    /// by another file that a late wake-up would then write to.
    deinit {
        closeDescriptor(wakeRead)
        closeDescriptor(wakeWrite)
    }

    // MARK: - The user's side

    func send(_ frame: WebSocketFrame) async throws {
        let refusal: WebSocketError? = shared.withLock { shared in
            guard shared.machine.canSend else { return .notOpen(shared.ending) }
            WebSocketFrameEncoder.append(frame, maskingKey: .random(), to: &shared.outbound)
            return nil
        }
        if let refusal { throw refusal }
        observer?(.sent(frame))
        wake()
        guard shared.withLock({ $0.outbound.count > Self.highWater }) else { return }
        await shared.wait { shared, continuation in
            guard shared.outbound.count > Self.highWater, !shared.finished else { return () }
            shared.drainWaiters.append(continuation)
            return nil
        }
    }

    /// Sends a close (unless one was sent) and waits for the connection to end.
    func close(_ close: WebSocketClose) async -> WebSocketEnding {
        startClose(close)
        return await ending()
    }

    /// Sends a close (1001, going away) without waiting: the socket was dropped while open.
    func abandon() { startClose(WebSocketClose(code: .goingAway)) }

    private func startClose(_ close: WebSocketClose) {
        let frames = shared.withLock { shared -> [WebSocketFrame] in
            let actions = shared.machine.close(close)
            enqueue(actions.send, into: &shared)
            if !actions.send.isEmpty { shared.closeDeadline = .now + .seconds(closeTimeout) }
            return actions.send
        }
        for frame in frames { observer?(.sent(frame)) }
        wake()
    }

    /// Waits for the connection to end.
    func ending() async -> WebSocketEnding {
        await shared.wait { shared, continuation in
            guard shared.finished, let ending = shared.ending else {
                shared.endingWaiters.append(continuation)
                return nil
            }
            return ending
        }
    }

    /// How the connection ended, once it has.
    var currentEnding: WebSocketEnding? { shared.withLock { $0.finished ? $0.ending : nil } }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    // MARK: - The connection's thread

    /// Runs the connection until it ends; `leftover` are bytes read with the handshake's answer.
    func run(leftover: [UInt8]) {
        var parser = WebSocketParser(role: .client, limits: limits)
        parser.append(leftover)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pending: [UInt8] = []
        var pendingOffset = 0
        var readable = true
        parse(&parser)
        while true {
            if readable { read(into: &buffer, parser: &parser) }
            let (finishedEnding, deadline) = shared.withLock { shared -> (WebSocketEnding?, ContinuousClock.Instant?) in
                if pendingOffset == pending.count {
                    swap(&pending, &shared.outbound)
                    shared.outbound.removeAll(keepingCapacity: true)
                    pendingOffset = 0
                } else {
                    pending.append(contentsOf: shared.outbound)
                    shared.outbound.removeAll(keepingCapacity: true)
                }
                return (shared.ending, shared.closeDeadline)
            }
            do {
                while pendingOffset < pending.count {
                    let sent = try pending.withUnsafeBytes { try stream.send(UnsafeRawBufferPointer(rebasing: $0[pendingOffset...])) }
                    if sent == 0 { break }
                    pendingOffset += sent
                }
            } catch {
                apply(shared.withLock { $0.machine.streamEnded(reason: "\(error.localizedDescription)") })
                break
            }
            resumeDrainWaiters(pendingBytes: pending.count - pendingOffset)
            if finishedEnding != nil, pendingOffset == pending.count { break }
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                if remaining <= .zero {
                    apply(shared.withLock { $0.machine.streamEnded(reason: "the server did not answer the close in \(closeTimeout) s") })
                    break
                }
                timeout = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            }
            let wantsWrite = pendingOffset < pending.count
            var descriptors = [
                pollfd(fd: stream.socket, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            _ = poll(&descriptors, 2, timeout)
            readable = descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
            if descriptors[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wakeRead, &drain, drain.count) > 0 {}
            }
        }
        finish()
    }

    private func read(into buffer: inout [UInt8], parser: inout WebSocketParser) {
        while shared.withLock({ $0.ending == nil }) {
            let count: Int?
            do {
                count = try buffer.withUnsafeMutableBytes { try stream.receive(into: $0) }
            } catch {
                apply(shared.withLock { $0.machine.streamEnded(reason: error.localizedDescription) })
                return
            }
            guard let count else { return }
            guard count > 0 else {
                apply(shared.withLock { $0.machine.streamEnded(reason: "the server closed the connection without a close frame") })
                return
            }
            buffer.withUnsafeBytes { parser.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            parse(&parser)
        }
    }

    private func parse(_ parser: inout WebSocketParser) {
        do {
            while shared.withLock({ $0.ending == nil }), let event = try parser.next() {
                observer?(.received(event))
                apply(shared.withLock { $0.machine.received(event) })
            }
        } catch {
            apply(shared.withLock { $0.machine.failed(error) })
        }
    }

    /// Queues an action's frames, records its ending, and hands its message to the user.
    private func apply(_ actions: WebSocketSessionStateMachine.Actions) {
        shared.withLock { shared in
            enqueue(actions.send, into: &shared)
            if let ending = actions.ending { shared.ending = ending }
        }
        for frame in actions.send { observer?(.sent(frame)) }
        if let message = actions.deliver { messages.yield(message) }
    }

    private func enqueue(_ frames: [WebSocketFrame], into shared: inout Shared) {
        for frame in frames { WebSocketFrameEncoder.append(frame, maskingKey: .random(), to: &shared.outbound) }
    }

    private func resumeDrainWaiters(pendingBytes: Int) {
        guard pendingBytes <= Self.highWater else { return }
        let waiters = shared.withLock { shared -> [CheckedContinuation<Void, Never>] in
            guard shared.outbound.count <= Self.highWater else { return [] }
            defer { shared.drainWaiters = [] }
            return shared.drainWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func finish() {
        stream.close()
        let ending = shared.withLock { shared in
            let ending = shared.ending ?? .abnormal(reason: "the connection ended")
            shared.ending = ending
            return ending
        }
        // The observer (a recorder saving the conversation into its cassette) hears of the end before the connection
        // counts as finished: a close() or ending() that returns has the conversation saved.
        observer?(.ended(ending))
        let (waiters, drains) = shared.withLock { shared in
            shared.finished = true
            defer {
                shared.endingWaiters = []
                shared.drainWaiters = []
            }
            return (shared.endingWaiters, shared.drainWaiters)
        }
        switch ending {
        case .closed: messages.finish()
        case .protocolError(let error): messages.finish(throwing: error)
        case .abnormal(let reason): messages.finish(throwing: WebSocketError.abnormalClosure(reason: reason))
        }
        for waiter in waiters { waiter.resume(returning: ending) }
        for drain in drains { drain.resume() }
    }

    private func closeDescriptor(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
}

/// What passes over a connection, as a recorder sees it: frames sent (whole, unmasked), events received, the end.
public enum WebSocketTrafficEvent: Sendable, Hashable {
    /// A frame the client sent.
    case sent(WebSocketFrame)
    /// A message or control frame the server sent.
    case received(WebSocketEvent)
    /// How the connection ended.
    case ended(WebSocketEnding)
}
