import CMicroHTTPD
import Dispatch
import Foundation
import TapedeckCore

/// A libmicrohttpd connection pointer, compared by identity. libmicrohttpd documents `MHD_resume_connection`
/// as safe to call from any thread; nothing else is done with it off the daemon's threads.
struct ConnectionHandle: Hashable, @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What the daemon's callbacks share: stubs, journal, admin API, limits, and the connections paused for pacing.
final class StubServerCore: Sendable {
    let stubs: StubRegistry
    let journal: RequestJournal
    /// The upgraded WebSocket connections and their frames.
    let webSockets: WebSocketJournal
    let admin: AdminAPI?
    let configuration: StubServer.Configuration
    /// What answers requests no stub matches: a served cassette or a recording proxy.
    let fallback: FallbackSlot
    private let suspended = Locked<Set<ConnectionHandle>?>([])
    /// Resumes paused connections when their time comes. A serial queue of its own gets a thread of its own, so
    /// pacing keeps time even when the tests around the server block every thread of the global pool (two on a
    /// 2-core machine) in synchronous waits.
    private let timers = DispatchQueue(label: "tapedeck.stub-server.timers")
    /// The TLS identity as C strings, alive as long as the daemon that reads them.
    let tlsStrings: TLSStrings?
    /// The sockets upgraded to WebSocket connections, closed before the daemons stop.
    let upgradedSockets = UpgradedSockets()

    init(configuration: StubServer.Configuration) {
        self.configuration = configuration
        let stubs = StubRegistry()
        self.stubs = stubs
        let journal = RequestJournal(capacity: configuration.journalCapacity)
        self.journal = journal
        let webSockets = WebSocketJournal(capacity: configuration.journalCapacity)
        self.webSockets = webSockets
        let fallback = FallbackSlot()
        self.fallback = fallback
        self.admin = configuration.admin.map {
            AdminAPI(configuration: $0, stubs: stubs, journal: journal, webSockets: webSockets, fallback: fallback)
        }
        self.tlsStrings = configuration.tls.map(TLSStrings.init)
    }

    /// Whether the server is shutting down (connections are then being resumed so the daemon can stop).
    var isStopping: Bool { suspended.withLock { $0 == nil } }

    /// Suspends `connection` (from its access-handler or content-reader callback) and resumes it at `deadline`.
    func suspend(_ connection: ConnectionHandle, until deadline: ContinuousClock.Instant) {
        let accepted = suspended.withLock { set -> Bool in
            guard set != nil else { return false }
            MHD_suspend_connection(connection.pointer)
            set!.insert(connection)
            return true
        }
        guard accepted else { return }
        let delay = ContinuousClock.now.duration(to: deadline)
        let nanoseconds = max(0, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
        // Weakly: a stopped server has resumed every connection already, and a timer that kept the core would keep it
        // (and every stub's body) for the rest of the delay, up to the end of the process (LeakSanitizer's reports).
        timers.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
            self?.resume(connection)
        }
    }

    /// Suspends `connection` until ``resume(_:)`` or the server stops (for requests answered later or never).
    func suspendUntilStop(_ connection: ConnectionHandle) {
        suspended.withLock { set in
            guard set != nil else { return }
            MHD_suspend_connection(connection.pointer)
            set!.insert(connection)
        }
    }

    /// Resumes a connection suspended by this core; does nothing when it is not suspended (or the server stopped).
    func resume(_ connection: ConnectionHandle) {
        suspended.withLock { set in
            if set?.remove(connection) != nil {
                MHD_resume_connection(connection.pointer)
            }
        }
    }

    /// Marks the server as stopping and resumes every suspended connection, as `MHD_stop_daemon` requires.
    func beginStopping() {
        suspended.withLock { set in
            for connection in set ?? [] {
                MHD_resume_connection(connection.pointer)
            }
            set = nil
        }
    }
}

/// NUL-terminated copies of a certificate chain and key for libmicrohttpd, freed with their owner.
final class TLSStrings: @unchecked Sendable {
    // Immutable after init; libmicrohttpd only reads them.
    let certificate: UnsafeMutablePointer<CChar>
    let key: UnsafeMutablePointer<CChar>

    init(_ identity: TLSIdentity) {
        certificate = strdup(identity.certificateChainPEM)
        key = strdup(identity.privateKeyPEM)
    }

    deinit {
        free(certificate)
        free(key)
    }
}
