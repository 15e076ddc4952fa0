import CMicroHTTPD
import Foundation
import Synchronization
import TapedeckCore
#if canImport(Glibc)
import Glibc
#endif

/// The listening socket of a ``StubServer`` (or a ``ForwardProxy``): it accepts connections on its own thread and
/// hands them to the server's daemons in turn (`MHD_add_connection`), so connections spread evenly over the daemon
/// threads.
///
/// Left to itself, a libmicrohttpd worker accepts up to ten pending connections in one go. A client that opens its
/// connections together (a load generator, a connection pool warming up) then often lands on one thread while the
/// others idle, and that thread serves them all in turn: throughput drops and tail latency grows with the number of
/// connections it holds.
final class ConnectionAcceptor: Sendable {
    /// Why the socket could not be set up: the failing step and the system's reason.
    struct SetupError: Error {
        let reason: String
    }

    let descriptor: Int32
    /// The bound port (the one the system chose for port 0).
    let port: UInt16
    private let stopping = Atomic(false)
    /// The accepting thread, once started.
    private let thread = Locked<JoinableThread?>(nil)

    /// Creates, binds and listens on a socket for `address`.
    init(address: UnsafePointer<sockaddr>, isIPv6: Bool, backlog: Int32) throws(SetupError) {
        let family = isIPv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SetupError(reason: "socket: \(Self.lastError)") }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if isIPv6 { setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard bind(descriptor, address, length) == 0 else {
            let reason = Self.lastError
            close(descriptor)
            throw SetupError(reason: reason)
        }
        guard listen(descriptor, backlog) == 0 else {
            let reason = Self.lastError
            close(descriptor)
            throw SetupError(reason: "listen: \(reason)")
        }
        var bound = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundLength) }
        }
        self.descriptor = descriptor
        port = withUnsafePointer(to: &bound) { pointer in
            isIPv6
                ? UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port })
                : UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port })
        }
    }

    deinit {
        stop()
        close(descriptor)
    }

    /// The accepting thread's name.
    static let threadName = "MHD-accept"

    /// Starts accepting for `daemons`, which take connections in turn.
    func start(handingTo daemons: DaemonGroup) {
        start { socket, peer, length in
            daemons.add(socket, peer: peer, length: length)
        }
    }

    /// Starts accepting on its own thread; `handle` gets each accepted socket (blocking, close-on-exec) and its
    /// peer's address, on the accepting thread, and owns the socket from then on. Called again, it does nothing.
    func start(_ handle: @escaping @Sendable (_ socket: Int32, _ peer: UnsafePointer<sockaddr>, _ length: socklen_t) -> Void) {
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = JoinableThread(name: Self.threadName) { [self] in acceptUntilStopped(handle) }
        }
    }

    /// Stops accepting and waits until the thread has ended; the socket closes with the acceptor. Pending, not yet
    /// accepted connections are refused. Safe to call more than once.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        thread.withLock { $0 }?.join()
    }

    private func acceptUntilStopped(_ handle: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void) {
        while !stopping.load(ordering: .acquiring) {
            var peer = sockaddr_storage()
            var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let connection = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    tdk_accept_cloexec(descriptor, $0, &peerLength)
                }
            }
            guard connection >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED, EAGAIN, EPROTO:
                    continue
                default:
                    // Out of descriptors or memory (or shut down): let the system recover instead of spinning.
                    if !stopping.load(ordering: .acquiring) { usleep(10_000) }
                    continue
                }
            }
            withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handle(connection, $0, peerLength) }
            }
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}
