/// Builds the requests the monitor sends (pure: bytes out, no sockets). Integers are in host byte order.
enum NetlinkRequest {
    /// A dump of every link (RTM_GETLINK), address (RTM_GETADDR) or route (RTM_GETROUTE), of all families.
    static func dump(_ type: UInt16, sequence: UInt32) -> [UInt8] {
        let bodySize: Int
        switch type {
        case Netlink.getLink: bodySize = Netlink.linkMessageSize
        case Netlink.getAddress: bodySize = Netlink.addressMessageSize
        default: bodySize = Netlink.routeMessageSize
        }
        return message(type: type, flags: Netlink.flagRequest | Netlink.flagDump, sequence: sequence,
                       body: [UInt8](repeating: 0, count: bodySize))
    }

    /// The route the kernel would use to send to `destination` (what `ip route get ADDRESS` asks).
    static func routeLookup(_ destination: IPAddress, sequence: UInt32) -> [UInt8] {
        var body = [UInt8](repeating: 0, count: Netlink.routeMessageSize)
        body[0] = destination.family.linuxValue
        body[1] = destination.family.bitCount
        body += attribute(Netlink.routeDestination, destination.bytes)
        return message(type: Netlink.getRoute, flags: Netlink.flagRequest, sequence: sequence, body: body)
    }

    /// An `nlmsghdr` followed by `body`, padded to 4 bytes.
    static func message(type: UInt16, flags: UInt16, sequence: UInt32, portID: UInt32 = 0, body: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Netlink.headerSize + body.count + 3)
        bytes.appendInteger(UInt32(Netlink.headerSize + body.count))
        bytes.appendInteger(type)
        bytes.appendInteger(flags)
        bytes.appendInteger(sequence)
        bytes.appendInteger(portID)
        bytes += body
        bytes += [UInt8](repeating: 0, count: Netlink.aligned(bytes.count) - bytes.count)
        return bytes
    }

    /// An `rtattr` carrying `value`, padded to 4 bytes.
    static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendInteger(UInt16(Netlink.attributeHeaderSize + value.count))
        bytes.appendInteger(type)
        bytes += value
        bytes += [UInt8](repeating: 0, count: Netlink.aligned(bytes.count) - bytes.count)
        return bytes
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in host byte order.
    mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value) { append(contentsOf: $0) }
    }
}
