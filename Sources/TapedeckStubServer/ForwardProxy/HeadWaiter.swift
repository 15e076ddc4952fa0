import CMicroHTTPD
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
import TapedeckCore
#endif

/// Waits for the first request head of every new connection to a ``ForwardProxy`` on one thread, so an idle or slow
/// client holds a descriptor, not a thread.
///
/// A connection is polled until its first bytes arrive, then looked at without taking them (`MSG_PEEK`): peeked bytes
/// stay readable, so a connection whose head is still partial is not polled again but peeked at every few
/// milliseconds until the head is whole, the peer closes, or the deadline passes.
final class HeadWaiter: Sendable {
    /// What became of a connection's head; the socket is the callee's from then on.
    typealias Outcome = @Sendable (_ socket: Int32, _ peer: PeerSocketAddress, _ head: Result<(ProxyRequestHead, length: Int), ProxySocket.HeadFailure>) -> Void

    private struct Entry {
        let peer: PeerSocketAddress
        let deadline: ContinuousClock.Instant
        /// Bytes seen by the last peek; 0 while nothing has arrived.
        var peeked = 0
    }

    private let entries = Locked<[Int32: Entry]?>([:])
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let exited = DispatchSemaphore(value: 0)
    let timeout: Duration
    let outcome: Outcome

    /// Interval between peeks at a partial head.
    static let partialInterval: Int32 = 5

    /// Starts the waiting thread.
    init(timeout: Duration, outcome: @escaping Outcome) throws(ProxySocketError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ProxySocketError(reason: "pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK); _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        self.timeout = timeout
        self.outcome = outcome
        Thread { [self] in
            waitUntilStopped()
            exited.signal()
        }.start()
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Waits for `socket`'s head (at most ``timeout``); closes it at once when stopped.
    func add(_ socket: Int32, peer: PeerSocketAddress) {
        let added = entries.withLock { entries -> Bool in
            guard entries != nil else { return false }
            entries?[socket] = Entry(peer: peer, deadline: .now + timeout)
            return true
        }
        guard added else {
            close(socket)
            return
        }
        wake()
    }

    /// Stops waiting, closes the connections still waiting, and joins the thread. Safe to call more than once.
    func stop() {
        guard let waiting = entries.withLock({ entries -> [Int32: Entry]? in
            defer { entries = nil }
            return entries
        }) else { return }
        wake()
        exited.wait()
        waiting.keys.forEach { close($0) }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func waitUntilStopped() {
        var buffer = [UInt8](repeating: 0, count: ProxyRequestHead.maximumLength)
        while let snapshot = entries.withLock({ $0 }) {
            let fresh = snapshot.filter { $0.value.peeked == 0 }.map(\.key)
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                + fresh.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let hasPartial = snapshot.count > fresh.count
            let nearest = snapshot.values.map(\.deadline).min().map { ContinuousClock.now.duration(to: $0) } ?? .seconds(1)
            let wait = hasPartial ? Self.partialInterval : Int32(clamping: Int((min(nearest, .seconds(1)) / .milliseconds(1)).rounded(.up)))
            _ = poll(&descriptors, nfds_t(descriptors.count), max(1, wait))
            var drained: UInt8 = 0
            while read(wakeRead, &drained, 1) > 0 {}
            var candidates = descriptors.dropFirst().filter { $0.revents != 0 }.map(\.fd)
            candidates += snapshot.filter { $0.value.peeked > 0 }.map(\.key)
            for socket in candidates {
                let result = ProxySocket.peekHead(socket, into: &buffer)
                settle(socket, result)
            }
            let now = ContinuousClock.now
            for (socket, entry) in snapshot where entry.deadline <= now {
                settle(socket, .failure(.timedOut))
            }
        }
    }

    /// Hands a finished connection on, or notes how much of a partial head has arrived.
    private func settle(_ socket: Int32, _ result: ProxySocket.Peeked) {
        let finished: (PeerSocketAddress, Result<(ProxyRequestHead, length: Int), ProxySocket.HeadFailure>)?
        finished = entries.withLock { entries in
            guard let entry = entries?[socket] else { return nil }
            switch result {
            case .waiting:
                return nil
            case .partial(let count):
                entries?[socket]?.peeked = count
                return nil
            case .failure(let failure):
                entries?[socket] = nil
                return (entry.peer, .failure(failure))
            case .complete(let head, let length):
                entries?[socket] = nil
                return (entry.peer, .success((head, length)))
            }
        }
        if let (peer, head) = finished { outcome(socket, peer, head) }
    }
}
