import CMicroHTTPD
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import TapedeckCore
#endif

/// libmicrohttpd daemons that share one ``StubServerCore``, each with its own epoll thread and no listening socket
/// of its own: connections are handed to them in turn with ``add(_:peer:length:)``.
///
/// (One daemon with a thread pool would let whichever worker wakes first accept a burst of up to ten connections,
/// and place added ones by socket number, which an in-process client's own sockets skew: either way, connections
/// opened together can pile onto one thread.)
final class DaemonGroup: Sendable {
    /// Why the daemons could not start.
    struct StartError: Error {
        let reason: String
    }

    private struct Pointers: @unchecked Sendable {
        let values: [OpaquePointer]
    }

    let core: StubServerCore
    private let daemons: Locked<Pointers?>
    private let next = Atomic(0)
    private let count: Int

    /// Starts `core.configuration.threadCount` daemons (at least one) for `core`, which they keep alive until
    /// ``stop()``.
    init(core: StubServerCore) throws(StartError) {
        self.core = core
        let configuration = core.configuration
        // One reference for all the daemons, released by stop() after the last one has stopped.
        let context = Unmanaged.passRetained(core).toOpaque()
        var pointers: [OpaquePointer] = []
        for _ in 0..<max(1, configuration.threadCount) {
            guard let pointer = Self.startDaemon(core: core, context: context) else {
                let reason = errno == 0 ? "libmicrohttpd refused to start" : String(cString: strerror(errno))
                pointers.forEach { MHD_stop_daemon($0) }
                Unmanaged<StubServerCore>.fromOpaque(context).release()
                throw StartError(reason: reason)
            }
            pointers.append(pointer)
        }
        count = pointers.count
        daemons = Locked(Pointers(values: pointers))
    }

    deinit { stop() }

    /// Hands an accepted socket to the next daemon; libmicrohttpd owns it from then on (and closes it when it
    /// cannot take the connection, or when the group has stopped).
    @discardableResult
    func add(_ socket: Int32, peer: UnsafePointer<sockaddr>, length: socklen_t) -> Bool {
        let index = next.add(1, ordering: .relaxed).oldValue % count
        let added = daemons.withLock { pointers -> Bool in
            guard let pointers else {
                close(socket)
                return false
            }
            return MHD_add_connection(pointers.values[index], socket, peer, length) == .YES
        }
        return added
    }

    /// Resumes suspended connections, stops every daemon (closing its connections and joining its thread), lets a
    /// recording fallback save its cassette, and releases the core. Safe to call more than once.
    func stop() {
        guard let pointers = daemons.withLock({ current -> Pointers? in
            defer { current = nil }
            return current
        }) else { return }
        core.beginStopping()
        core.upgradedSockets.closeAll()
        pointers.values.forEach { MHD_stop_daemon($0) }
        core.fallback.finishAtStop()
        Unmanaged.passUnretained(core).release()
    }

    /// One daemon with its own epoll thread, fed connections from outside (`MHD_add_connection`).
    private static func startDaemon(core: StubServerCore, context: UnsafeMutableRawPointer) -> OpaquePointer? {
        let configuration = core.configuration
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_NO_LISTEN_SOCKET.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_UPGRADE.rawValue
        var options: [MHD_OptionItem] = []
        if let tls = core.tlsStrings {
            flags |= MHD_USE_TLS.rawValue
            options += [
                tdk_mhd_option_pointer(.HTTPS_MEM_CERT, tls.certificate),
                tdk_mhd_option_pointer(.HTTPS_MEM_KEY, tls.key),
            ]
        }
        options += [
            tdk_mhd_option_int(.CONNECTION_TIMEOUT, max(0, configuration.connectionTimeout)),
            tdk_mhd_option_int(.CONNECTION_LIMIT, connectionsPerDaemon(configuration)),
            tdk_mhd_option_uri_log(stubURICallback, context),
            tdk_mhd_option_notify_completed(stubCompletedCallback, context),
            tdk_mhd_option_end(),
        ]
        return options.withUnsafeMutableBufferPointer { buffer in
            tdk_mhd_start(flags, 0, stubAccessHandler, context, buffer.baseAddress)
        }
    }

    /// Each daemon thread's share of ``StubServer/Configuration/connectionLimit``, rounded up.
    static func connectionsPerDaemon(_ configuration: StubServer.Configuration) -> Int {
        let threads = max(1, configuration.threadCount)
        return max(1, (max(1, configuration.connectionLimit) + threads - 1) / threads)
    }
}
