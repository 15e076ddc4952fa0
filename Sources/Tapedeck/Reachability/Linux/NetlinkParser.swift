/// Decodes a buffer received from a NETLINK_ROUTE socket: `nlmsghdr`s, each followed by an `ifinfomsg`,
/// `ifaddrmsg`, `rtmsg` or `nlmsgerr` and a list of `rtattr`s. Integers are in host byte order, as netlink sends them.
enum NetlinkParser {
    /// All messages of one datagram, in order.
    static func parse(_ bytes: [UInt8]) throws(NetlinkParseError) -> [NetlinkEnvelope] {
        var envelopes: [NetlinkEnvelope] = []
        var offset = 0
        while bytes.count - offset >= Netlink.headerSize {
            let length = Int(bytes.load(UInt32.self, at: offset))
            guard length >= Netlink.headerSize, length <= bytes.count - offset else {
                throw NetlinkParseError(offset: offset, reason: "message length \(length) does not fit the "
                                        + "\(bytes.count - offset) bytes left")
            }
            let type = bytes.load(UInt16.self, at: offset + 4)
            let flags = bytes.load(UInt16.self, at: offset + 6)
            let sequence = bytes.load(UInt32.self, at: offset + 8)
            let body = bytes[(offset + Netlink.headerSize)..<(offset + length)]
            let message = try decode(type: type, flags: flags, body: body)
            envelopes.append(NetlinkEnvelope(type: type, flags: flags, sequence: sequence, message: message))
            offset += Netlink.aligned(length)
        }
        if offset < bytes.count {
            throw NetlinkParseError(offset: offset, reason: "\(bytes.count - offset) trailing bytes, less than a header")
        }
        return envelopes
    }

    private static func decode(type: UInt16, flags: UInt16, body: ArraySlice<UInt8>) throws(NetlinkParseError) -> NetlinkMessage {
        switch type {
        case Netlink.done:
            return .done(interrupted: flags & Netlink.flagDumpInterrupted != 0)
        case Netlink.error:
            try require(body, 4, "nlmsgerr")
            // The kernel sends -errno; Int32.min has no negation and is no errno, so it is kept as it is.
            let code = body.load(Int32.self, at: body.startIndex)
            return .error(errno: code == .min ? code : -code)
        case Netlink.newLink, Netlink.deleteLink:
            return .link(try link(body), deleted: type == Netlink.deleteLink)
        case Netlink.newAddress, Netlink.deleteAddress:
            guard let address = try address(body) else { return .ignored(type: type) }
            return .address(address, deleted: type == Netlink.deleteAddress)
        case Netlink.newRoute, Netlink.deleteRoute:
            guard let route = try route(body) else { return .ignored(type: type) }
            return .route(route, deleted: type == Netlink.deleteRoute)
        default:
            return .ignored(type: type)
        }
    }

    private static func link(_ body: ArraySlice<UInt8>) throws(NetlinkParseError) -> NetlinkLink {
        try require(body, Netlink.linkMessageSize, "ifinfomsg")
        let start = body.startIndex
        var link = NetlinkLink(index: body.load(Int32.self, at: start + 4), flags: body.load(UInt32.self, at: start + 8),
                               arpType: body.load(UInt16.self, at: start + 2), name: nil)
        for attribute in try attributes(body.dropFirst(Netlink.linkMessageSize)) where attribute.type == Netlink.linkName {
            link.name = String(decoding: attribute.value.prefix { $0 != 0 }, as: UTF8.self)
        }
        return link
    }

    private static func address(_ body: ArraySlice<UInt8>) throws(NetlinkParseError) -> NetlinkAddress? {
        try require(body, Netlink.addressMessageSize, "ifaddrmsg")
        let start = body.startIndex
        guard let family = family(body[start]) else { return nil }
        var local: IPAddress?
        var peer: IPAddress?
        for attribute in try attributes(body.dropFirst(Netlink.addressMessageSize)) {
            switch attribute.type {
            case Netlink.addressLocal: local = IPAddress(family: family, bytes: Array(attribute.value))
            case Netlink.addressAddress: peer = IPAddress(family: family, bytes: Array(attribute.value))
            default: break
            }
        }
        // IFA_LOCAL is the interface's own address; IFA_ADDRESS is the peer on point-to-point links.
        guard let address = local ?? peer else { return nil }
        return NetlinkAddress(interfaceIndex: Int32(bitPattern: body.load(UInt32.self, at: start + 4)), address: address,
                              prefixLength: body[start + 1], scope: body[start + 3])
    }

    private static func route(_ body: ArraySlice<UInt8>) throws(NetlinkParseError) -> NetlinkRoute? {
        try require(body, Netlink.routeMessageSize, "rtmsg")
        let start = body.startIndex
        guard let family = family(body[start]) else { return nil }
        var route = NetlinkRoute(family: family, destinationLength: body[start + 1], destination: nil,
                                 table: UInt32(body[start + 4]), type: body[start + 7], interfaces: [],
                                 gateway: nil, priority: 0)
        for attribute in try attributes(body.dropFirst(Netlink.routeMessageSize)) {
            let value = attribute.value
            switch attribute.type {
            case Netlink.routeDestination: route.destination = IPAddress(family: family, bytes: Array(value))
            case Netlink.routeGateway: route.gateway = IPAddress(family: family, bytes: Array(value))
            case Netlink.routeOutputInterface where value.count >= 4:
                route.interfaces.append(value.load(Int32.self, at: value.startIndex))
            case Netlink.routePriority where value.count >= 4: route.priority = value.load(UInt32.self, at: value.startIndex)
            case Netlink.routeTable where value.count >= 4: route.table = value.load(UInt32.self, at: value.startIndex)
            case Netlink.routeMultipath: route.interfaces += try nextHops(value)
            default: break
            }
        }
        return route
    }

    /// The interface of each `rtnexthop` in an RTA_MULTIPATH attribute.
    private static func nextHops(_ value: ArraySlice<UInt8>) throws(NetlinkParseError) -> [Int32] {
        var interfaces: [Int32] = []
        var offset = value.startIndex
        while value.endIndex - offset >= Netlink.nextHopSize {
            let length = Int(value.load(UInt16.self, at: offset))
            guard length >= Netlink.nextHopSize, length <= value.endIndex - offset else {
                throw NetlinkParseError(offset: offset, reason: "next hop length \(length) does not fit")
            }
            interfaces.append(value.load(Int32.self, at: offset + 4))
            offset += Netlink.aligned(length)
        }
        return interfaces
    }

    /// The `rtattr`s of a message body: type (without the NLA_F_NESTED / NLA_F_NET_BYTEORDER bits) and payload.
    static func attributes(_ bytes: ArraySlice<UInt8>) throws(NetlinkParseError) -> [(type: UInt16, value: ArraySlice<UInt8>)] {
        var result: [(type: UInt16, value: ArraySlice<UInt8>)] = []
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= Netlink.attributeHeaderSize {
            let length = Int(bytes.load(UInt16.self, at: offset))
            guard length >= Netlink.attributeHeaderSize, length <= bytes.endIndex - offset else {
                throw NetlinkParseError(offset: offset, reason: "attribute length \(length) does not fit the "
                                        + "\(bytes.endIndex - offset) bytes left")
            }
            let type = bytes.load(UInt16.self, at: offset + 2) & 0x3FFF
            result.append((type, bytes[(offset + Netlink.attributeHeaderSize)..<(offset + length)]))
            offset += Netlink.aligned(length)
        }
        return result
    }

    private static func family(_ value: UInt8) -> IPAddress.Family? {
        switch value {
        case IPAddress.Family.v4.linuxValue: .v4
        case IPAddress.Family.v6.linuxValue: .v6
        default: nil
        }
    }

    private static func require(_ body: ArraySlice<UInt8>, _ size: Int, _ what: String) throws(NetlinkParseError) {
        guard body.count >= size else {
            throw NetlinkParseError(offset: body.startIndex, reason: "\(what) needs \(size) bytes, got \(body.count)")
        }
    }
}

extension Collection where Self.Index == Int, Element == UInt8 {
    /// A host-order integer at absolute index `offset`; the caller has checked the bounds.
    func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { raw in
            for byte in 0..<MemoryLayout<T>.size { raw[byte] = self[offset + byte] }
        }
        return value
    }
}
