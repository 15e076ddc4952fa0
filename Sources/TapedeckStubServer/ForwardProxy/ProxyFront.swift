import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where each connection to a ``ForwardProxy`` goes, decided by its first request head (read by a ``HeadWaiter``):
/// an absolute-form request
/// leaves the socket untouched for the plain daemons; `CONNECT host:port` takes exactly the head off the socket,
/// answers `200 Connection Established` and hands the socket to the TLS daemons for that host (or a passthrough
/// tunnel, or answers `403`).
final class ProxyFront: Sendable {
    let plain: DaemonGroup
    let tunnels: TunnelDaemons
    let policy: ProxyHostPolicy
    /// How long a passthrough tunnel may idle.
    let timeout: Duration
    let log: @Sendable (String) -> Void

    init(plain: DaemonGroup, tunnels: TunnelDaemons, policy: ProxyHostPolicy, timeout: Duration,
         log: @escaping @Sendable (String) -> Void) {
        self.plain = plain
        self.tunnels = tunnels
        self.policy = policy
        self.timeout = timeout
        self.log = log
    }

    /// Sends a connection where its first request head says. Plain requests and refusals are settled at once on
    /// the calling thread; a `CONNECT`, which may wait up to ``timeout`` for the tunnel's first byte, gets a
    /// thread of its own (not the global pool, which the client's own threads may be filling).
    func route(_ socket: Int32, peer: PeerSocketAddress, head: Result<(ProxyRequestHead, length: Int), ProxySocket.HeadFailure>) {
        switch head {
        case .failure(.invalid(let reason)):
            ProxySocket.send(socket, ProxySocket.response(status: 400, reason: "Bad Request", body: reason + "\n"))
            close(socket)
        case .failure(.closed), .failure(.timedOut):
            close(socket)
        case .success(let (head, length)):
            guard case .connect(let host, let port) = head.target else {
                _ = peer.withAddress { plain.add(socket, peer: $0, length: $1) }
                return
            }
            Thread { [self] in
                guard ProxySocket.consume(socket, count: length) else {
                    close(socket)
                    return
                }
                openTunnel(socket, host: host, port: port, peer: peer)
            }.start()
        }
    }

    private func openTunnel(_ socket: Int32, host: String, port: UInt16, peer: PeerSocketAddress) {
        switch policy.decision(forHost: host) {
        case .refused(let message):
            log(message)
            ProxySocket.send(socket, ProxySocket.response(status: 403, reason: "Host Not Allowed", body: message + "\n"))
            close(socket)
        case .passthrough:
            switch PassthroughTunnel.connect(host: host, port: port) {
            case .failure(let error):
                ProxySocket.send(socket, ProxySocket.response(status: 502, reason: "Bad Gateway", body: error.reason + "\n"))
                close(socket)
            case .success(let upstream):
                guard ProxySocket.send(socket, ProxySocket.connectionEstablished) else {
                    close(socket)
                    close(upstream)
                    return
                }
                let idle = timeout
                Thread { PassthroughTunnel.relay(client: socket, upstream: upstream, idleTimeout: idle) }.start()
            }
        case .cassette:
            guard ProxySocket.send(socket, ProxySocket.connectionEstablished) else {
                close(socket)
                return
            }
            // Most tunnels carry TLS (a handshake record starts 0x16); some clients (AsyncHTTPClient) tunnel plain
            // HTTP too, which is then recorded as http://host/….
            guard let first = ProxySocket.peekFirstByte(socket, within: timeout) else {
                close(socket)
                return
            }
            let group: DaemonGroup?
            do { group = try tunnels.group(host: host, port: port, tls: first == 0x16) } catch {
                log(error.reason)
                close(socket)
                return
            }
            guard let group else {
                close(socket)
                return
            }
            // The TLS handshake is several small writes each way: with Nagle's algorithm each waits for the peer's
            // delayed acknowledgement (40 ms) of the one before.
            ProxySocket.disableNagle(socket)
            _ = peer.withAddress { group.add(socket, peer: $0, length: $1) }
        }
    }
}

/// A copy of an accepted connection's peer address, to hand on from another thread.
struct PeerSocketAddress: Sendable {
    private var storage = sockaddr_storage()
    private let length: socklen_t

    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        self.length = min(length, socklen_t(MemoryLayout<sockaddr_storage>.size))
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(self.length))) }
    }

    func withAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
