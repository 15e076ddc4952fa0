@testable import Tapedeck

/// Builders for rtnetlink messages as the kernel sends them (host byte order), for parser and state tests.
enum NetlinkFixtures {
    static func link(index: Int32, name: String, flags: UInt32, arpType: UInt16 = 1, deleted: Bool = false,
                     sequence: UInt32 = 0) -> [UInt8] {
        var body: [UInt8] = [0, 0]  // ifi_family AF_UNSPEC, pad
        body.appendInteger(arpType)
        body.appendInteger(index)
        body.appendInteger(flags)
        body.appendInteger(UInt32(0xFFFF_FFFF))  // ifi_change
        body += NetlinkRequest.attribute(3, Array(name.utf8) + [0])  // IFLA_IFNAME
        body += NetlinkRequest.attribute(4, [0xDC, 0x05, 0, 0])  // IFLA_MTU 1500, ignored
        return NetlinkRequest.message(type: deleted ? 17 : 16, flags: 0, sequence: sequence, body: body)
    }

    static func address(index: Int32, _ literal: String, prefix: UInt8, scope: UInt8 = 0, deleted: Bool = false) -> [UInt8] {
        let address = IPAddress(literal)!
        var body: [UInt8] = [address.family.linuxValue, prefix, 0x80, scope]
        body.appendInteger(UInt32(bitPattern: index))
        body += NetlinkRequest.attribute(1, address.bytes)  // IFA_ADDRESS
        body += NetlinkRequest.attribute(2, address.bytes)  // IFA_LOCAL
        body += NetlinkRequest.attribute(3, Array("eth0".utf8) + [0])  // IFA_LABEL, ignored
        return NetlinkRequest.message(type: deleted ? 21 : 20, flags: 0, sequence: 0, body: body)
    }

    static func route(family: IPAddress.Family = .v4, destination: String? = nil, length: UInt8 = 0,
                      gateway: String? = nil, interface: Int32?, table: UInt8 = 254, type: UInt8 = 1,
                      priority: UInt32? = nil, multipath: [Int32] = [], deleted: Bool = false,
                      sequence: UInt32 = 0) -> [UInt8] {
        var body: [UInt8] = [family.linuxValue, length, 0, 0, table, 4, 0, type]
        body.appendInteger(UInt32(0))
        body += NetlinkRequest.attribute(15, withUnsafeBytes(of: UInt32(table)) { Array($0) })  // RTA_TABLE
        if let destination { body += NetlinkRequest.attribute(1, IPAddress(destination)!.bytes) }
        if let gateway { body += NetlinkRequest.attribute(5, IPAddress(gateway)!.bytes) }
        if let interface { body += NetlinkRequest.attribute(4, withUnsafeBytes(of: interface) { Array($0) }) }
        if let priority { body += NetlinkRequest.attribute(6, withUnsafeBytes(of: priority) { Array($0) }) }
        if !multipath.isEmpty {
            var hops: [UInt8] = []
            for hop in multipath {
                hops.appendInteger(UInt16(8))
                hops += [0, 0]
                hops.appendInteger(hop)
            }
            body += NetlinkRequest.attribute(9, hops)
        }
        return NetlinkRequest.message(type: deleted ? 25 : 24, flags: 0, sequence: sequence, body: body)
    }

    static func done(sequence: UInt32, interrupted: Bool = false) -> [UInt8] {
        NetlinkRequest.message(type: 3, flags: interrupted ? 0x12 : 0x02, sequence: sequence, body: [0, 0, 0, 0])
    }

    static func error(_ code: Int32, sequence: UInt32) -> [UInt8] {
        var body: [UInt8] = []
        body.appendInteger(-code)
        body += [UInt8](repeating: 0, count: 16)  // the request's header
        return NetlinkRequest.message(type: 2, flags: 0, sequence: sequence, body: body)
    }

    static let up: UInt32 = 0x1 | 0x2 | 0x40 | 0x1000 | 0x10000  // IFF_UP|BROADCAST|RUNNING|MULTICAST|LOWER_UP
    static let upWithoutCarrier: UInt32 = 0x1 | 0x2 | 0x1000  // IFF_UP|BROADCAST|MULTICAST (NO-CARRIER)
    static let down: UInt32 = 0x2 | 0x1000
    static let loopbackUp: UInt32 = 0x1 | 0x8 | 0x40 | 0x10000

    /// Parses fixtures into messages, failing the test on malformed data.
    static func messages(_ datagrams: [UInt8]...) throws -> [NetlinkMessage] {
        try NetlinkParser.parse(datagrams.flatMap { $0 }).map(\.message)
    }
}
