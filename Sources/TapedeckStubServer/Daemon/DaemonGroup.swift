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
///
/// A daemon starts when the first connection is handed to it, so a server a test starts and stops without a request
/// (or with one) starts no thread it does not use. With TLS the first daemon starts at once, so that a certificate or
/// key libmicrohttpd refuses fails the start instead of the first connection.
final class DaemonGroup: Sendable {
    /// Why the daemons could not start.
    struct StartError: Error {
        let reason: String
    }

    /// The daemons started so far (`nil` where none started yet), and the core's reference they all share.
    private struct Daemons: @unchecked Sendable {
        var values: [OpaquePointer?]
        let context: UnsafeMutableRawPointer
    }

    let core: StubServerCore
    private let daemons: Locked<Daemons?>
    private let next = Atomic(0)
    private let count: Int

    /// A group of `core.configuration.threadCount` daemons (at least one) for `core`, which they keep alive until
    /// ``stop()``; with TLS the first one starts now (see the type's description).
    init(core: StubServerCore) throws(StartError) {
        self.core = core
        count = max(1, core.configuration.threadCount)
        // One reference for all the daemons, released by stop().
        let context = Unmanaged.passRetained(core).toOpaque()
        var values = [OpaquePointer?](repeating: nil, count: count)
        if core.tlsStrings != nil {
            guard let first = Self.startDaemon(core: core, context: context) else {
                Unmanaged<StubServerCore>.fromOpaque(context).release()
                throw StartError(reason: Self.refusal)
            }
            values[0] = first
        }
        daemons = Locked(Daemons(values: values, context: context))
    }

    deinit { stop() }

    /// Hands an accepted socket to the next daemon, starting it when it is the first connection it gets;
    /// libmicrohttpd owns the socket from then on (and closes it when it cannot take the connection). After ``stop()``,
    /// or when no daemon can start, the socket is closed here.
    @discardableResult
    func add(_ socket: Int32, peer: UnsafePointer<sockaddr>, length: socklen_t) -> Bool {
        let index = next.add(1, ordering: .relaxed).oldValue % count
        return daemons.withLock { daemons -> Bool in
            guard var started = daemons else {
                close(socket)
                return false
            }
            if started.values[index] == nil {
                started.values[index] = Self.startDaemon(core: core, context: started.context)
                daemons = started
            }
            // A daemon that cannot start (out of threads or descriptors) leaves the connection to one that did.
            guard let daemon = started.values[index] ?? started.values.lazy.compactMap({ $0 }).first else {
                let line = "tapedeck stub server: no daemon could start (\(Self.refusal)); a connection was closed\n"
                FileHandle.standardError.write(Data(line.utf8))
                close(socket)
                return false
            }
            return MHD_add_connection(daemon, socket, peer, length) == .YES
        }
    }

    /// Resumes suspended connections, stops every started daemon (closing its connections and joining its thread),
    /// lets a recording fallback save its cassette, and releases the core. Safe to call more than once.
    func stop() {
        guard let daemons = daemons.withLock({ current -> Daemons? in
            defer { current = nil }
            return current
        }) else { return }
        core.beginStopping()
        core.upgradedSockets.closeAll()
        daemons.values.forEach { if let daemon = $0 { MHD_stop_daemon(daemon) } }
        core.fallback.finishAtStop()
        Unmanaged<StubServerCore>.fromOpaque(daemons.context).release()
    }

    /// What libmicrohttpd's refusal to start a daemon is put down to.
    private static var refusal: String {
        errno == 0 ? "libmicrohttpd refused to start" : String(cString: strerror(errno))
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
