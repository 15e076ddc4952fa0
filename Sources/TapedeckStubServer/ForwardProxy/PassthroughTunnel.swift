import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `CONNECT` tunnel a ``ForwardProxy`` does not intercept: bytes are copied both ways between the client and
/// `host:port`, unread and unrecorded, until either side closes or the tunnel idles for `idleTimeout`.
enum PassthroughTunnel {
    /// Connects to `host:port`; the connected socket, or why not.
    static func connect(host: String, port: UInt16) -> Result<Int32, ProxySocketError> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(ProxySocketError(reason: "cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = entry {
            let socket = Glibc.socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                                      candidate.pointee.ai_protocol)
            if socket >= 0 {
                if Glibc.connect(socket, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 { return .success(socket) }
                reason = String(cString: strerror(errno))
                close(socket)
            }
            entry = candidate.pointee.ai_next
        }
        return .failure(ProxySocketError(reason: "cannot connect to \(host):\(port): \(reason)"))
    }

    /// Copies bytes between `client` and `upstream` on the calling thread until one side closes, an error, or
    /// `idleTimeout` with nothing moving; then closes both.
    static func relay(client: Int32, upstream: Int32, idleTimeout: Duration) {
        defer {
            close(client)
            close(upstream)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: upstream, events: Int16(POLLIN), revents: 0)]
        let idleMilliseconds = Int32(clamping: Int((idleTimeout / .milliseconds(1)).rounded(.up)))
        while true {
            let ready = poll(&descriptors, 2, max(1, idleMilliseconds))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                let destination = index == 0 ? upstream : client
                let count = buffer.withUnsafeMutableBytes { recv(descriptor.fd, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0, ProxySocket.send(destination, Array(buffer[..<count])) else { return }
            }
        }
    }
}

/// Why a socket operation of the proxy failed.
struct ProxySocketError: Error {
    let reason: String
}
