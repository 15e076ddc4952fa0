import CMicroHTTPD
import Foundation
import Glibc
import TapedeckCore

/// An HTTP server embedded in the test process, on libmicrohttpd: real sockets, real HTTP parsing,
/// deterministic answers. It listens on 127.0.0.1 and a free port by default and records every request.
///
/// ```swift
/// let server = try StubServer()
/// server.route(.get, "/hello", response: .text("world"))
/// let response = try await CurlTransport().send(HTTPRequest(url: server.url("/hello")))
/// #expect(server.journal.entries.count == 1)
/// server.stop()
/// ```
public final class StubServer: Sendable {
    /// How the server listens and what it keeps.
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal. Default `127.0.0.1`.
        public var host: String
        /// The port, or `0` for any free port (the default). The bound port is ``StubServer/port``.
        public var port: UInt16
        /// Daemon threads, each running its own epoll loop. Connections are spread over them in turn; each thread
        /// starts with the first connection it gets, so a server that answers one request runs one. Default 2.
        public var threadCount: Int
        /// Requests kept in the journal before the oldest are dropped.
        public var journalCapacity: Int
        /// Bytes of each request body kept in memory for handlers and the journal; longer bodies are counted and
        /// hashed in full but truncated (``RecordedRequest/bodyTruncated``), so huge uploads cost no memory.
        public var maximumBodyInMemory: Int
        /// Seconds an idle connection is kept open, or `0` for no limit. A connection that sends nothing, or
        /// dribbles a request too slowly (a slow-loris client), is closed after this long without a byte. Default 60.
        public var connectionTimeout: Int
        /// Connections held at once, over all daemon threads (each takes its share, rounded up); a connection
        /// beyond it is closed as soon as it is accepted, and the others are served as usual. Default 4,096.
        public var connectionLimit: Int
        /// Serve HTTPS with this identity instead of plain HTTP.
        public var tls: TLSIdentity?
        /// Host names that ``StubServer/transport(configuration:)`` routes to this server, e.g. `api.example.com`.
        public var hostNames: [String]
        /// Anchors ``StubServer/transport(configuration:)`` trusts: the CA that issued ``tls``.
        public var trustedCertificates: [TLSSettings.Certificate]
        /// The admin API, or `nil` (the default) for none. See ``AdminConfiguration``.
        public var admin: AdminConfiguration?

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            threadCount: Int = 2,
            journalCapacity: Int = 10_000,
            maximumBodyInMemory: Int = 8 << 20,
            connectionTimeout: Int = 60,
            connectionLimit: Int = 4_096,
            tls: TLSIdentity? = nil,
            hostNames: [String] = [],
            trustedCertificates: [TLSSettings.Certificate] = [],
            admin: AdminConfiguration? = nil
        ) {
            self.tls = tls
            self.hostNames = hostNames
            self.trustedCertificates = trustedCertificates
            self.admin = admin
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.journalCapacity = journalCapacity
            self.maximumBodyInMemory = maximumBodyInMemory
            self.connectionTimeout = connectionTimeout
            self.connectionLimit = connectionLimit
        }
    }

    /// Why a server could not start.
    public enum StartError: Error, CustomStringConvertible {
        /// `host` is not an IPv4 or IPv6 literal.
        case invalidHost(String)
        /// libmicrohttpd refused to start (port in use, no permission, …).
        case daemonFailed(host: String, port: UInt16, reason: String)

        /// How messages and reports print it.
        public var description: String {
            switch self {
            case .invalidHost(let host):
                return "StubServer cannot bind \"\(host)\": give an IPv4 or IPv6 address literal such as 127.0.0.1 or ::1"
            case .daemonFailed(let host, let port, let reason):
                return "StubServer could not listen on \(host):\(port): \(reason)"
            }
        }
    }

    /// The running daemons (one libmicrohttpd daemon per thread) and the acceptor that feeds them.
    private struct Daemons: Sendable {
        let group: DaemonGroup
        let acceptor: ConnectionAcceptor
    }

    let core: StubServerCore
    private let daemon = Locked<Daemons?>(nil)
    /// The port the server listens on.
    public let port: UInt16
    /// The address the server listens on.
    public let host: String

    /// Starts a server; it listens as soon as this returns.
    public convenience init(configuration: Configuration = Configuration()) throws {
        try self.init(configuration: configuration, accepting: true)
    }

    /// A server whose socket listens; with `accepting` false its connections wait in the kernel's backlog until
    /// ``startAccepting()``: for a server that installs something large (a cassette of thousands of interactions)
    /// before it can answer, so that a client connecting as soon as the port opens is answered once it is ready, not
    /// told that no stub matches.
    package init(configuration: Configuration, accepting: Bool) throws {
        let core = StubServerCore(configuration: configuration)
        self.core = core
        self.host = configuration.host
        let started = try Self.startDaemons(configuration: configuration, core: core, accepting: accepting)
        self.port = started.acceptor.port
        daemon.withLock { $0 = started }
    }

    /// Accepts the connections that waited since ``init(configuration:accepting:)`` and every later one. Does
    /// nothing on a server that accepts already or has stopped.
    package func startAccepting() {
        guard let running = daemon.withLock({ $0 }) else { return }
        running.acceptor.start(handingTo: running.group)
    }

    deinit { stop() }

    /// Whether the server speaks HTTPS.
    public var usesTLS: Bool { core.configuration.tls != nil }

    /// The configuration the server was started with.
    public var configuration: Configuration { core.configuration }

    /// The base URL, e.g. `http://127.0.0.1:49152`.
    public var baseURL: URL {
        let literal = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(usesTLS ? "https" : "http")://\(literal):\(port)")!
    }

    /// `path` (with an optional query) on this server, e.g. `url("/get?a=1")`.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + (path.hasPrefix("/") ? path : "/" + path))!
    }

    /// Every request received so far (bounded by ``Configuration/journalCapacity``).
    public var journal: RequestJournal { core.journal }

    /// Every WebSocket connection upgraded so far, with its frames (bounded by ``Configuration/journalCapacity``).
    public var webSocketJournal: WebSocketJournal { core.webSockets }

    /// Stops listening, closes every connection and joins the daemon's threads. Safe to call more than once.
    public func stop() {
        guard let running = daemon.withLock({ current -> Daemons? in
            defer { current = nil }
            return current
        }) else { return }
        running.acceptor.stop()
        running.group.stop()
    }

    /// Whether the server is still listening.
    public var isRunning: Bool { daemon.withLock { $0 != nil } }

    /// The daemons serving connections, `nil` once stopped.
    var daemonGroup: DaemonGroup? { daemon.withLock { $0?.group } }

    // MARK: - Starting libmicrohttpd

    /// Binds the listening socket, starts `threadCount` daemons (a ``DaemonGroup``), and (when `accepting`) has the
    /// acceptor hand them connections in turn.
    private static func startDaemons(configuration: Configuration, core: StubServerCore, accepting: Bool) throws -> Daemons {
        let acceptor = try listen(on: configuration.host, port: configuration.port)
        let group: DaemonGroup
        do { group = try DaemonGroup(core: core) } catch {
            throw StartError.daemonFailed(host: configuration.host, port: configuration.port, reason: error.reason)
        }
        if accepting { acceptor.start(handingTo: group) }
        return Daemons(group: group, acceptor: acceptor)
    }

    /// A bound, listening socket on `host:port` (not yet accepting).
    static func listen(on host: String, port: UInt16) throws -> ConnectionAcceptor {
        do {
            return try withSocketAddress(host, port: port) { address, isIPv6 in
                try ConnectionAcceptor(address: address, isIPv6: isIPv6, backlog: 1024)
            }
        } catch let error as ConnectionAcceptor.SetupError {
            throw StartError.daemonFailed(host: host, port: port, reason: error.reason)
        }
    }

    /// Calls `body` with a `sockaddr` for `host:port`, and whether it is IPv6.
    private static func withSocketAddress<T>(
        _ host: String, port: UInt16,
        _ body: (UnsafePointer<sockaddr>, Bool) throws -> T
    ) throws -> T {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            return try withUnsafePointer(to: &v4) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, false) }
            }
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            return try withUnsafePointer(to: &v6) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, true) }
            }
        }
        throw StartError.invalidHost(host)
    }
}
