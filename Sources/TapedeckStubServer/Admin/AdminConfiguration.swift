import Foundation
import Glibc
import TapedeckCore

/// The admin API: JSON over HTTP under a reserved path prefix (default `/__admin`) of the stub server itself, so
/// tests in other languages and contract tests can drive the server. Off unless configured. See the StubDefinitions article (TapedeckStubServer.docc) for the
/// endpoints and the stub definition format.
///
/// Without a token it answers only loopback peers; with a token every admin request must carry
/// `Authorization: Bearer TOKEN`, from any peer. Refused requests get `401` (no or wrong token) or `403`
/// (not loopback), and are not journaled.
///
/// ```swift
/// let server = try StubServer(configuration: .init(admin: AdminConfiguration(token: "s3cret")))
/// // curl -H 'Authorization: Bearer s3cret' -d @stub.json http://127.0.0.1:PORT/__admin/stubs
/// ```
public struct AdminConfiguration: Sendable, Hashable {
    /// The path prefix, without a trailing slash. Default `/__admin`.
    public var pathPrefix: String
    /// The bearer token every admin request must carry, or `nil` to allow loopback peers only.
    public var token: String?

    /// Creates an admin configuration.
    public init(pathPrefix: String = "/__admin", token: String? = nil) {
        self.pathPrefix = pathPrefix.hasSuffix("/") ? String(pathPrefix.dropLast()) : pathPrefix
        self.token = token
    }
}

/// Decides whether an admin request may proceed. Pure logic.
enum AdminAuthorization: Equatable {
    case allowed
    case refused(status: Int, reason: String)

    static func decide(peerIsLoopback: Bool, authorization: String?, token: String?) -> AdminAuthorization {
        guard let token else {
            return peerIsLoopback ? .allowed
                : .refused(status: 403, reason: "the admin API answers only loopback peers unless a token is configured")
        }
        guard let authorization else {
            return .refused(status: 401, reason: "the admin API needs an \"Authorization: Bearer TOKEN\" header")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .refused(status: 401, reason: "the Authorization header must be \"Bearer TOKEN\"")
        }
        return constantTimeEquals(String(parts[1]).trimmingCharacters(in: .whitespaces), token)
            ? .allowed : .refused(status: 401, reason: "the admin token is wrong")
    }

    private static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<min(x.count, y.count) { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

/// A connection's peer address, read from libmicrohttpd.
struct PeerAddress {
    let isLoopback: Bool

    init(isLoopback: Bool) { self.isLoopback = isLoopback }

    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else {
            isLoopback = false
            return
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = UnsafeRawPointer(address).load(as: sockaddr_in.self)
            isLoopback = UInt32(bigEndian: v4.sin_addr.s_addr) >> 24 == 127
        case AF_INET6:
            let v6 = UnsafeRawPointer(address).load(as: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
            let isV6Loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
            let isMappedV4Loopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            isLoopback = isV6Loopback || isMappedV4Loopback
        default:
            isLoopback = false
        }
    }
}
