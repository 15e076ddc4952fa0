import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 forward proxy that records into, or replays from, a cassette: point any client at it with
/// `HTTP_PROXY`/`HTTPS_PROXY` (or its own proxy setting) and it records and replays with no code change.
///
/// A plain request arrives in absolute form (`GET http://host/path HTTP/1.1`). For `CONNECT host:port` the proxy
/// answers `200 Connection Established` and terminates TLS itself with a leaf certificate for `host`, issued by
/// ``certificateAuthority`` (made for this run; write it out with ``writeCertificateAuthority(to:)`` for clients to
/// trust) and cached per host; the requests inside the tunnel are recorded and replayed as `https://host/…`.
/// Connections are kept alive in both cases.
///
/// Each request is recorded exactly as an in-process `CassetteTransport` records it (the same URL, redaction,
/// matching and file format), so a cassette recorded through the proxy replays in process, and the reverse.
/// Hosts outside ``Configuration/allowedHosts`` get a `403` naming the host and how to allow it, unless
/// ``Configuration/passthrough`` forwards them unrecorded. The proxy listens on loopback only unless
/// ``Configuration/allowsNonLoopbackListener`` says otherwise.
///
/// ```swift
/// let proxy = try ForwardProxy(cassette: URL(fileURLWithPath: "Cassettes/api.json"), mode: .record(.newEpisodes),
///                              configuration: .init(allowedHosts: ["api.example.com"]))
/// try proxy.writeCertificateAuthority(to: URL(fileURLWithPath: "/tmp/tapedeck-ca.pem"))
/// // curl -x \(proxy.proxyURL) --cacert /tmp/tapedeck-ca.pem https://api.example.com/v1/me
/// let summary = try await proxy.finishRecording()
/// proxy.stop()
///
/// let replay = try ForwardProxy(cassette: URL(fileURLWithPath: "Cassettes/api.json"), mode: .replay)
/// let client = CurlTransport(configuration: .init(trustedCertificates: [replay.certificateAuthority.trustAnchor],
///                                                 proxy: replay.proxyURL.absoluteString))
/// let me = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/v1/me")!))
/// ```
public final class ForwardProxy: Sendable {
    /// The address the proxy listens on.
    public let host: String
    /// The port the proxy listens on.
    public let port: UInt16
    /// The CA whose leaves the proxy presents for intercepted hosts.
    public let certificateAuthority: TestCertificateAuthority
    /// The mode the proxy runs in.
    public let mode: Mode

    private let acceptor: ConnectionAcceptor
    private let heads: HeadWaiter
    private let front: ProxyFront
    private let plain: DaemonGroup
    private let tunnels: TunnelDaemons
    private let exchange: ForwardExchange
    private let stopped = Locked(false)

    /// Starts a proxy for the cassette at `cassette`; it listens as soon as this returns.
    ///
    /// - Throws: ``StartError`` for a non-loopback listener without permission, or daemons that cannot start;
    ///   `StubServer.StartError` when the address cannot be bound; `CassetteError` when the cassette cannot be
    ///   opened (missing in replay, not a valid cassette, locked by another recorder).
    public init(cassette: URL, mode: Mode, configuration: Configuration = Configuration()) throws {
        if !configuration.allowsNonLoopbackListener && !HostRules.isLoopback(HostRules.bareHost(configuration.host)) {
            throw StartError.nonLoopbackListener(configuration.host)
        }
        if let given = configuration.certificateAuthority {
            certificateAuthority = given
        } else {
            do { certificateAuthority = try TestCertificateAuthority(commonName: "Tapedeck Proxy CA") } catch {
                throw StartError.certificateAuthority(error.description)
            }
        }
        let source: ForwardExchange.Source
        switch mode {
        case .record(let recordMode):
            source = .recording(try RecordingProxy(
                upstream: nil, cassette: cassette, mode: recordMode, configuration: configuration.cassette,
                upstreamConfiguration: configuration.upstream, timeout: configuration.upstreamTimeout))
        case .replay:
            source = .replaying(try ServedCassette(url: cassette, configuration: configuration.cassette, origin: nil))
        }
        let policy = ProxyHostPolicy(allowedHosts: configuration.allowedHosts, passthrough: configuration.passthrough,
                                     environment: configuration.environment)
        exchange = ForwardExchange(source: source, policy: policy, upstreamConfiguration: configuration.upstream,
                                   timeout: configuration.upstreamTimeout, log: configuration.log)
        let acceptor = try StubServer.listen(on: configuration.host, port: configuration.port)
        let core = StubServerCore(configuration: configuration.daemons)
        core.fallback.install(.forward(exchange, origin: nil))
        do { plain = try DaemonGroup(core: core) } catch { throw StartError.daemonFailed(error.reason) }
        tunnels = TunnelDaemons(authority: certificateAuthority, exchange: exchange, configuration: configuration.daemons)
        let timeout = Duration.seconds(max(1, configuration.connectionTimeout))
        let front = ProxyFront(plain: plain, tunnels: tunnels, policy: policy, timeout: timeout, log: configuration.log)
        self.front = front
        let heads: HeadWaiter
        do {
            heads = try HeadWaiter(timeout: timeout) { [weak front] socket, peer, head in
                guard let front else {
                    close(socket)
                    return
                }
                front.route(socket, peer: peer, head: head)
            }
        } catch { throw StartError.daemonFailed(error.reason) }
        self.heads = heads
        acceptor.start { socket, peer, length in heads.add(socket, peer: PeerSocketAddress(peer, length: length)) }
        self.acceptor = acceptor
        self.host = configuration.host
        self.port = acceptor.port
        self.mode = mode
    }

    deinit { stop() }

    /// The proxy's address as a URL for clients, e.g. `http://127.0.0.1:49152`.
    public var proxyURL: URL {
        let literal = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(literal):\(port)")!
    }

    /// The CA certificate clients must trust for intercepted HTTPS, PEM.
    public var certificateAuthorityPEM: String { certificateAuthority.certificatePEM }

    /// Writes the CA certificate (PEM) to `file`, for `curl --cacert`, `requests`' `verify=` and the like: a regular
    /// file is replaced atomically, a symbolic link or a device written through, anything else refused (a
    /// `CassetteError` that says what is there).
    public func writeCertificateAuthority(to file: URL) throws {
        do { try AtomicFile.write(Data(certificateAuthorityPEM.utf8), to: file) } catch { throw CassetteError(error) }
    }

    /// The environment variables that send a client's requests through the proxy, in a stable order; with
    /// `certificateAuthorityFile`, those that make common clients trust the proxy's CA too: OpenSSL's default
    /// (`SSL_CERT_FILE`: Python's `ssl`, `urllib` and `httpx`, Go, Ruby, .NET), curl, Python `requests`, Node, git,
    /// pip, npm, Cargo and the AWS SDKs.
    public func environment(certificateAuthorityFile: String? = nil) -> [(name: String, value: String)] {
        let url = proxyURL.absoluteString
        var variables = [("HTTP_PROXY", url), ("HTTPS_PROXY", url), ("http_proxy", url), ("https_proxy", url)]
        if let file = certificateAuthorityFile {
            variables += ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO",
                          "PIP_CERT", "NPM_CONFIG_CAFILE", "CARGO_HTTP_CAINFO", "AWS_CA_BUNDLE"].map { ($0, file) }
        }
        return variables.map { (name: $0.0, value: $0.1) }
    }

    /// Interactions forwarded and put in the cassette so far (0 in replay).
    public var recordedInteractionCount: Int {
        if case .recording(let recorder) = exchange.source { return recorder.recordedCount }
        return 0
    }

    /// The `host:port` of every host a tunnel was intercepted for (each with its cached leaf and daemons), sorted.
    public var interceptedAuthorities: [String] { tunnels.authorities }

    /// In record mode: stops recording cleanly (new requests get a `503`, exchanges under way are waited for, at
    /// most `timeout`) and saves the cassette. ``stop()`` also saves it, without waiting.
    ///
    /// - Returns: the cassette's summary, or `nil` in replay.
    @discardableResult
    public func finishRecording(timeout: Duration = .seconds(30)) async throws(CassetteError) -> CassetteSummary? {
        guard case .recording(let recorder) = exchange.source else { return nil }
        return try await recorder.finish(waitingAtMost: timeout)
    }

    /// In replay: what the cassette has played so far and what was unmatched; `nil` in record mode.
    public func servingSummary() -> CassetteServingSummary? {
        guard case .replaying(let cassette) = exchange.source else { return nil }
        return cassette.summary
    }

    /// Stops listening, closes every connection and tunnel daemon, and (in record mode) saves the cassette. Safe to
    /// call more than once.
    public func stop() {
        guard !stopped.withLock({ value in defer { value = true }; return value }) else { return }
        acceptor.stop()
        heads.stop()
        plain.stop()
        tunnels.stopAll()
        if case .recording(let recorder) = exchange.source { _ = try? recorder.finishNow() }
    }
}
