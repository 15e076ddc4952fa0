import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port nothing listens on: bound to 127.0.0.1, read, then released (for a server that must be given a
/// port, or a client that must find nothing there).
///
/// ```swift
/// let port = try unusedLoopbackPort()
/// process.arguments = ["serve", cassette, "--port", String(port)]
/// ```
public func unusedLoopbackPort() throws -> UInt16 {
    let (descriptor, port) = try loopbackSocket(listening: false)
    close(descriptor)
    return port
}

/// A TCP socket bound to a free port of 127.0.0.1, listening when `listening` (for a test's own raw server); the
/// caller closes it.
///
/// ```swift
/// let (listener, port) = try loopbackSocket(listening: true)
/// defer { close(listener) }
/// ```
public func loopbackSocket(listening: Bool) throws -> (descriptor: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    do {
        try withUnsafeMutablePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, length) == 0, getsockname(fd, $0, &length) == 0, !listening || listen(fd, 16) == 0 else {
                    throw POSIXError(.EADDRINUSE)
                }
            }
        }
    } catch {
        close(fd)
        throw error
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}

/// A loopback port that refuses every connection while this value lives: bound and never listening, so no server
/// can take it meanwhile. (A port read from a stopped server can be taken by the next test's server, which then
/// answers where the test expected a refusal.)
///
/// ```swift
/// let refusing = try RefusingLoopbackPort()
/// defer { withExtendedLifetime(refusing) {} }
/// let url = refusing.url("/nothing-listens-here")
/// ```
public final class RefusingLoopbackPort: Sendable {
    public let port: UInt16
    private let descriptor: Int32

    public init() throws {
        (descriptor, port) = try loopbackSocket(listening: false)
    }

    deinit { close(descriptor) }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }
}
