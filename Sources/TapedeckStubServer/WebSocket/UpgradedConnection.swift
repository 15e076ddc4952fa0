import CMicroHTTPD
import Foundation
import TapedeckCore

/// libmicrohttpd's handle of an upgraded connection, used by the one thread that serves it.
struct UpgradeHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The thread of one upgraded socket: noted among the server's upgraded sockets while `body` runs, then handed back
/// to libmicrohttpd.
enum UpgradedConnection {
    /// Starts the thread; false (and the socket closed) when the server is stopping.
    @discardableResult
    static func start(socket: Int32, handle: OpaquePointer, core: StubServerCore, name: String,
                      body: @escaping @Sendable (UpgradedSockets) -> Void) -> Bool {
        guard let id = core.upgradedSockets.register(socket) else {
            _ = tdk_mhd_upgrade_close(handle)
            return false
        }
        let upgrade = UpgradeHandle(pointer: handle)
        let thread = Thread {
            body(core.upgradedSockets)
            // Forgotten before libmicrohttpd closes it: once closed, its number may belong to another connection,
            // which a stopping server's closeAll() must not shut down.
            core.upgradedSockets.finished(id)
            _ = tdk_mhd_upgrade_close(upgrade.pointer)
        }
        thread.name = name
        thread.start()
        return true
    }
}

/// Blocking reads and writes on an upgraded socket (which libmicrohttpd may have made non-blocking), waiting with
/// poll(2); a server that stops shuts the socket down, which ends every wait.
struct BlockingSocket {
    let descriptor: Int32
    let sockets: UpgradedSockets

    /// Reads what is there (waiting for something); nil or 0 when the client left or the server stops.
    func read(into buffer: inout [UInt8]) -> Int? {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR, wait(for: Int16(POLLIN)) else { return nil }
        }
    }

    /// Writes all of `bytes`; false when the client left or the server stops.
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR, wait(for: Int16(POLLOUT)) {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Waits until `deadline`, or less when the server stops.
    func sleep(until deadline: ContinuousClock.Instant) {
        while !sockets.isStopping, ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            usleep(UInt32(min(50_000, max(1, left.components.seconds * 1_000_000 + left.components.attoseconds / 1_000_000_000_000))))
        }
    }

    /// After the last frame: no more writes, and what the client still sends is read and dropped (for at most a
    /// second), so that the close frame is not lost to a reset.
    func finish() {
        shutdown(descriptor, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return }
            if poller.revents == 0 { continue }
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return }
        }
    }

    private func wait(for events: Int16) -> Bool {
        var poller = pollfd(fd: descriptor, events: events, revents: 0)
        while !sockets.isStopping {
            let ready = poll(&poller, 1, 250)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return false }
        }
        return false
    }
}

/// The upgraded sockets of a server: a stopping server shuts them down and waits (at most 5 s) for their threads to
/// hand them back to libmicrohttpd, which must have them back before its daemon stops.
final class UpgradedSockets: Sendable {
    private struct State {
        var open: [Int: Int32] = [:]
        var nextID = 0
        var stopping = false
    }

    private let state = Locked(State())

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Notes an open socket; nil when the server is stopping (the socket is then closed at once).
    func register(_ socket: Int32) -> Int? {
        state.withLock { state -> Int? in
            guard !state.stopping else { return nil }
            state.nextID += 1
            state.open[state.nextID] = socket
            return state.nextID
        }
    }

    func finished(_ id: Int) { state.withLock { _ = $0.open.removeValue(forKey: id) } }

    /// Shuts every open socket down and waits for them to be handed back. The shutdowns happen under the lock that
    /// ``finished(_:)`` takes before a socket is closed, so none reaches a number already closed and reused.
    func closeAll() {
        state.withLock { state in
            state.stopping = true
            for socket in state.open.values { shutdown(socket, Int32(SHUT_RDWR)) }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while state.withLock({ !$0.open.isEmpty }), ContinuousClock.now < deadline { usleep(5_000) }
    }
}
