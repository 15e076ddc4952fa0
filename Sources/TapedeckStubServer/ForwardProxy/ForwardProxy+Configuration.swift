import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl

extension ForwardProxy {
    /// Whether the proxy records or replays.
    public enum Mode: Sendable, Hashable {
        /// Forward requests to their hosts through `CurlTransport` and record each exchange, in this record mode
        /// (`RecordMode/newEpisodes` replays what the cassette has and records the rest; `RecordMode/all`
        /// re-records from scratch).
        case record(RecordMode)
        /// Answer from the cassette alone, with the in-process replayer's matching; no host is contacted (except
        /// hosts passed through, see ``Configuration/passthrough``).
        case replay
    }

    /// How the proxy listens, which hosts it covers, and how it reaches them.
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal. Default `127.0.0.1`.
        public var host: String
        /// The port, or `0` for any free port (the default).
        public var port: UInt16
        /// Allow ``host`` to be an address other than loopback (127.0.0.0/8, `::1`). Default `false`: a proxy that
        /// anyone on the network can use to reach anything is refused unless asked for.
        public var allowsNonLoopbackListener: Bool
        /// The hosts the cassette covers (exact names or `*.example.com`); `nil` (the default) for every host.
        /// `TAPEDECK_ALLOWED_HOSTS` in ``environment`` replaces it. A request to another host gets a `403` saying
        /// which host and how to allow it, unless ``passthrough`` is on.
        public var allowedHosts: Set<String>?
        /// Forward (or tunnel, for `CONNECT`) requests to hosts outside ``allowedHosts`` unrecorded instead of
        /// refusing them. Default `false`.
        public var passthrough: Bool
        /// The cassette's matching, redaction and other settings, as for `CassetteTransport`.
        public var cassette: CassetteConfiguration
        /// The settings of the transport that reaches real hosts (trust anchors, connect-to routes, …). Unless it
        /// names a `CurlTransport/Configuration/proxy`, no proxy from the environment is used.
        public var upstream: CurlTransport.Configuration
        /// Seconds an upstream exchange may stay idle.
        public var upstreamTimeout: TimeInterval
        /// The CA that issues a leaf certificate for each intercepted host; `nil` (the default) makes one.
        public var certificateAuthority: TestCertificateAuthority?
        /// Daemon threads for plain requests, and for each intercepted host. Default 2.
        public var threadCount: Int
        /// Seconds a client may take to send a request head, and an idle connection is kept. Default 60.
        public var connectionTimeout: Int
        /// Bytes of each request body held in memory; a longer body gets a `413`. Default 8 MiB.
        public var maximumBodyInMemory: Int
        /// Where `TAPEDECK_ALLOWED_HOSTS` is read (the process environment by default).
        public var environment: [String: String]
        /// Where the proxy's log lines go (a refused host, a tunnel that could not be set up); standard error by
        /// default.
        public var log: @Sendable (String) -> Void

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            allowsNonLoopbackListener: Bool = false,
            allowedHosts: Set<String>? = nil,
            passthrough: Bool = false,
            cassette: CassetteConfiguration = CassetteConfiguration(),
            upstream: CurlTransport.Configuration = CurlTransport.Configuration(),
            upstreamTimeout: TimeInterval = 60,
            certificateAuthority: TestCertificateAuthority? = nil,
            threadCount: Int = 2,
            connectionTimeout: Int = 60,
            maximumBodyInMemory: Int = 8 << 20,
            environment: [String: String] = ProcessInfo.processInfo.environment,
            log: @escaping @Sendable (String) -> Void = ForwardProxy.standardErrorLog
        ) {
            self.host = host
            self.port = port
            self.allowsNonLoopbackListener = allowsNonLoopbackListener
            self.allowedHosts = allowedHosts
            self.passthrough = passthrough
            self.cassette = cassette
            self.upstream = upstream
            self.upstreamTimeout = upstreamTimeout
            self.certificateAuthority = certificateAuthority
            self.threadCount = threadCount
            self.connectionTimeout = connectionTimeout
            self.maximumBodyInMemory = maximumBodyInMemory
            self.environment = environment
            self.log = log
        }

        /// The settings of the proxy's daemons (plain ones, or TLS ones once given an identity).
        var daemons: StubServer.Configuration {
            StubServer.Configuration(host: host, port: port, threadCount: threadCount, journalCapacity: 1,
                                     maximumBodyInMemory: maximumBodyInMemory, connectionTimeout: connectionTimeout)
        }
    }

    /// Writes `line` to standard error, prefixed `tapedeck proxy: `.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("tapedeck proxy: \(line)\n".utf8))
    }

    /// Why a proxy could not start.
    public enum StartError: Error, Sendable, CustomStringConvertible {
        /// The listening address is not loopback and ``Configuration/allowsNonLoopbackListener`` is off.
        case nonLoopbackListener(String)
        /// The CA could not be made.
        case certificateAuthority(String)
        /// The daemons could not start.
        case daemonFailed(String)

        /// How messages and reports print it.
        public var description: String {
            switch self {
            case .nonLoopbackListener(let host):
                return "the forward proxy listens on loopback only, and \(host) is not a loopback address (127.0.0.0/8 or ::1): "
                    + "anyone who reaches it could send requests anywhere through it; set allowsNonLoopbackListener "
                    + "(tapedeck: --listen-anywhere) to listen there anyway"
            case .certificateAuthority(let reason):
                return "the forward proxy could not make its certificate authority: \(reason)"
            case .daemonFailed(let reason):
                return "the forward proxy could not start its daemons: \(reason)"
            }
        }
    }
}
