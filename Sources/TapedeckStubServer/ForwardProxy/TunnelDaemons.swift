import Foundation
import TapedeckCore

/// The TLS side of a ``ForwardProxy``: for each `CONNECT host:port` a group of TLS daemons presenting a leaf
/// certificate for `host`, issued by the proxy's CA. Leaves are cached per host and daemons per `host:port`, so
/// only the first tunnel to a host pays for issuing its certificate and starting its daemons.
final class TunnelDaemons: Sendable {
    let authority: TestCertificateAuthority
    let exchange: ForwardExchange
    /// The daemons' settings; each group gets its own TLS identity.
    let configuration: StubServer.Configuration
    private let groups = Locked<[String: DaemonGroup]?>([:])
    private let leaves = Locked<[String: TLSIdentity]>([:])

    init(authority: TestCertificateAuthority, exchange: ForwardExchange, configuration: StubServer.Configuration) {
        self.authority = authority
        self.exchange = exchange
        self.configuration = configuration
    }

    /// Why a tunnel could not be set up.
    struct Failure: Error {
        let reason: String
    }

    /// The daemons for a tunnel to `host:port`, started on first use: TLS ones presenting a leaf for `host`, or,
    /// for a tunnel that carries plain HTTP, plain ones; `nil` once stopped.
    func group(host: String, port: UInt16, tls: Bool) throws(Failure) -> DaemonGroup? {
        let key = "\(host):\(port)" + (tls ? "" : " (plain)")
        return try groups.withLock { groups throws(Failure) -> DaemonGroup? in
            guard groups != nil else { return nil }
            if let running = groups?[key] { return running }
            var settings = configuration
            if tls { settings.tls = try leaf(for: host) }
            let core = StubServerCore(configuration: settings)
            core.fallback.install(.forward(exchange, origin: Self.origin(host: host, port: port, tls: tls)))
            let group: DaemonGroup
            do { group = try DaemonGroup(core: core) } catch let error as DaemonGroup.StartError {
                throw Failure(reason: "could not start the TLS daemons for \(key): \(error.reason)")
            } catch {
                throw Failure(reason: "could not start the TLS daemons for \(key): \(error)")
            }
            groups?[key] = group
            return group
        }
    }

    /// The `host:port` of every tunnel opened so far, sorted.
    var authorities: [String] { groups.withLock { ($0 ?? [:]).keys.sorted() } }

    /// Stops every group; later tunnels are refused.
    func stopAll() {
        let running = groups.withLock { groups -> [DaemonGroup] in
            defer { groups = nil }
            return Array((groups ?? [:]).values)
        }
        running.forEach { $0.stop() }
    }

    /// The cached leaf for `host`, issued on first use.
    private func leaf(for host: String) throws(Failure) -> TLSIdentity {
        if let cached = leaves.withLock({ $0[host] }) { return cached }
        do {
            let identity = try authority.issue(for: [host])
            leaves.withLock { $0[host] = identity }
            return identity
        } catch {
            throw Failure(reason: "could not issue a certificate for \(host): \(error.description)")
        }
    }

    /// `https://host[:port]` (or `http://` for a plain tunnel) as a URL's origin: IPv6 in brackets, the scheme's
    /// default port left out. Pure logic.
    static func origin(host: String, port: UInt16, tls: Bool = true) -> String {
        let name = host.contains(":") ? "[\(host)]" : host
        return (tls ? "https://" : "http://") + name + (port == (tls ? 443 : 80) ? "" : ":\(port)")
    }
}
