#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its network-order bytes.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    package enum Family: Sendable, Hashable {
        case v4, v6
        /// `AF_INET` / `AF_INET6` on Linux (linux/socket.h).
        package var linuxValue: UInt8 { self == .v4 ? 2 : 10 }
        package var byteCount: Int { self == .v4 ? 4 : 16 }
        package var bitCount: UInt8 { self == .v4 ? 32 : 128 }
    }

    package let family: Family
    package let bytes: [UInt8]

    package init?(family: Family, bytes: [UInt8]) {
        guard bytes.count == family.byteCount else { return nil }
        self.family = family
        self.bytes = bytes
    }

    /// Parses a dotted-quad IPv4 or an RFC 4291 IPv6 literal (optionally in brackets); `nil` otherwise.
    package init?(_ text: String) {
        var literal = Substring(text)
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        var v4 = [UInt8](repeating: 0, count: 4)
        var v6 = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, String(literal), &v4) == 1 {
            self.init(family: .v4, bytes: v4)
        } else if inet_pton(AF_INET6, String(literal), &v6) == 1 {
            self.init(family: .v6, bytes: v6)
        } else {
            return nil
        }
    }

    package var isLoopback: Bool {
        family == .v4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    package var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = family == .v4 ? AF_INET : AF_INET6
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

