/// One rtnetlink message, decoded into what reachability needs (pure: no sockets).
enum NetlinkMessage: Sendable, Hashable {
    /// RTM_NEWLINK / RTM_DELLINK.
    case link(NetlinkLink, deleted: Bool)
    /// RTM_NEWADDR / RTM_DELADDR of an IPv4 or IPv6 address.
    case address(NetlinkAddress, deleted: Bool)
    /// RTM_NEWROUTE / RTM_DELROUTE of an IPv4 or IPv6 route.
    case route(NetlinkRoute, deleted: Bool)
    /// NLMSG_DONE: the end of a dump; `interrupted` when the kernel flagged NLM_F_DUMP_INTR (state changed
    /// during the dump, which must be repeated).
    case done(interrupted: Bool)
    /// NLMSG_ERROR: `errno` is 0 for an acknowledgement, otherwise the positive errno.
    case error(errno: Int32)
    /// NLMSG_OVERRUN, or a message type reachability does not use.
    case ignored(type: UInt16)
}

/// A network interface as RTM_NEWLINK describes it.
struct NetlinkLink: Sendable, Hashable {
    var index: Int32
    /// IFF_* flags.
    var flags: UInt32
    /// ARPHRD_* link type.
    var arpType: UInt16
    var name: String?

    /// Up (IFF_UP) and operationally up (IFF_RUNNING: carrier present, or a device without carrier detection).
    var isUsable: Bool {
        flags & Netlink.interfaceUp != 0 && flags & Netlink.interfaceRunning != 0
    }
    var isAdministrativelyUp: Bool { flags & Netlink.interfaceUp != 0 }
    var isLoopback: Bool { flags & Netlink.interfaceLoopback != 0 || arpType == Netlink.arpLoopback }
}

/// An interface address as RTM_NEWADDR describes it.
struct NetlinkAddress: Sendable, Hashable {
    var interfaceIndex: Int32
    var address: IPAddress
    var prefixLength: UInt8
    /// RT_SCOPE_*: universe (0) and site (200) addresses can source traffic beyond the link.
    var scope: UInt8

    var isRoutable: Bool { scope == Netlink.scopeUniverse || scope == Netlink.scopeSite }
}

/// A route as RTM_NEWROUTE describes it (one entry of a table).
struct NetlinkRoute: Sendable, Hashable {
    var family: IPAddress.Family
    var destinationLength: UInt8
    var destination: IPAddress?
    var table: UInt32
    /// RTN_* route type.
    var type: UInt8
    /// Outgoing interfaces: RTA_OIF, or each next hop of RTA_MULTIPATH.
    var interfaces: [Int32]
    var gateway: IPAddress?
    /// RTA_PRIORITY (the metric); 0 when absent.
    var priority: UInt32

    /// `0.0.0.0/0` or `::/0`.
    var isDefault: Bool { destinationLength == 0 }
}

/// A decoded message with the header fields that matter to the reader.
struct NetlinkEnvelope: Sendable, Hashable {
    var type: UInt16
    var flags: UInt16
    var sequence: UInt32
    var message: NetlinkMessage
}

/// Malformed netlink input, with where it went wrong.
struct NetlinkParseError: Error, Hashable, CustomStringConvertible {
    var offset: Int
    var reason: String
    var description: String { "malformed netlink data at byte \(offset): \(reason)" }
}
