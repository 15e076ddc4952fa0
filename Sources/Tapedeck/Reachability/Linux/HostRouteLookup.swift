#if canImport(Glibc)
import TapedeckCore
import Glibc

/// The I/O half of a host target's evaluation: name resolution (getaddrinfo) and the kernel's route for each
/// address (RTM_GETROUTE with RTA_DST). Blocking; runs on the monitor's evaluation queue, never its thread.
enum HostRouteLookup {
    /// The addresses `name` resolves to, in the resolver's order without repeats; empty when it does not resolve.
    static func resolve(_ name: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let socketAddress = info.ai_addr else { continue }
            let address: IPAddress?
            switch info.ai_family {
            case AF_INET:
                address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var raw = $0.pointee.sin_addr
                    return IPAddress(family: .v4, bytes: withUnsafeBytes(of: &raw) { Array($0) })
                }
            case AF_INET6:
                address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var raw = $0.pointee.sin6_addr
                    return IPAddress(family: .v6, bytes: withUnsafeBytes(of: &raw) { Array($0) })
                }
            default:
                address = nil
            }
            if let address, !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }

    /// The kernel's route to each address, as `ip route get` reports it.
    static func routes(to addresses: [IPAddress]) throws(NetworkReachabilityError) -> [ReachabilityDecision.RouteLookup] {
        guard !addresses.isEmpty else { return [] }
        let socket = try NetlinkSocket(receiveTimeoutSeconds: 2)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var lookups: [ReachabilityDecision.RouteLookup] = []
        for (index, address) in addresses.enumerated() {
            let sequence = UInt32(index + 1)
            try socket.send(NetlinkRequest.routeLookup(address, sequence: sequence))
            lookups.append(try reply(to: sequence, on: socket, buffer: &buffer))
        }
        return lookups
    }

    private static func reply(
        to sequence: UInt32, on socket: NetlinkSocket, buffer: inout [UInt8]
    ) throws(NetworkReachabilityError) -> ReachabilityDecision.RouteLookup {
        while true {
            guard case .datagram(let bytes) = try socket.receive(into: &buffer, wait: true) else { continue }
            let envelopes: [NetlinkEnvelope]
            do { envelopes = try NetlinkParser.parse(bytes) } catch {
                throw .systemMonitorFailed(operation: "parse route reply (\(error))", errno: EBADMSG)
            }
            for envelope in envelopes where envelope.sequence == sequence {
                switch envelope.message {
                case .route(let route, _):
                    return .route(type: route.type, interface: route.interfaces.first)
                case .error(let code) where code != 0:
                    return .unreachable(errno: code)
                default:
                    continue
                }
            }
        }
    }
}
#endif
