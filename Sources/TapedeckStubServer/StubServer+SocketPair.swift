import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension StubServer {
    /// A connection to this server without TCP: one end of a Unix stream socket pair whose other end the server's
    /// daemons serve exactly as an accepted connection (libmicrohttpd parses the bytes, the stubs match, the
    /// response goes back), with the peer given as 127.0.0.1. For in-process drivers that need thousands of
    /// connections a second, such as the `stub-server-http` fuzz target; the caller owns and closes the returned
    /// descriptor. `nil` when the system has no descriptors left or the server has stopped.
    ///
    /// ```swift
    /// let socket = server.socketPairConnection()!
    /// defer { close(socket) }
    /// _ = send(socket, "GET /ping HTTP/1.1\r\nHost: x\r\n\r\n", 31, 0)
    /// ```
    func socketPairConnection() -> Int32? {
        guard let group = daemonGroup else { return nil }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return nil
        }
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let added = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                group.add(ends[1], peer: $0, length: socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard added else {
            close(ends[0])
            return nil
        }
        return ends[0]
    }
}
