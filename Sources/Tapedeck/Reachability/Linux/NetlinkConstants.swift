/// The rtnetlink numbers the monitor uses. Glibc's Swift module does not import the Linux UAPI headers, so the
/// values are copied here from the headers named on each group; they are part of the kernel's stable ABI.
enum Netlink {
    // linux/socket.h, linux/netlink.h
    static let addressFamily: Int32 = 16  // AF_NETLINK
    static let routeProtocol: Int32 = 0  // NETLINK_ROUTE

    // linux/netlink.h: message types
    static let noop: UInt16 = 1  // NLMSG_NOOP
    static let error: UInt16 = 2  // NLMSG_ERROR
    static let done: UInt16 = 3  // NLMSG_DONE
    static let overrun: UInt16 = 4  // NLMSG_OVERRUN

    // linux/netlink.h: flags
    static let flagRequest: UInt16 = 0x01  // NLM_F_REQUEST
    static let flagMulti: UInt16 = 0x02  // NLM_F_MULTI
    static let flagAck: UInt16 = 0x04  // NLM_F_ACK
    static let flagDumpInterrupted: UInt16 = 0x10  // NLM_F_DUMP_INTR
    static let flagDump: UInt16 = 0x300  // NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH

    // linux/rtnetlink.h: message types
    static let newLink: UInt16 = 16  // RTM_NEWLINK
    static let deleteLink: UInt16 = 17  // RTM_DELLINK
    static let getLink: UInt16 = 18  // RTM_GETLINK
    static let newAddress: UInt16 = 20  // RTM_NEWADDR
    static let deleteAddress: UInt16 = 21  // RTM_DELADDR
    static let getAddress: UInt16 = 22  // RTM_GETADDR
    static let newRoute: UInt16 = 24  // RTM_NEWROUTE
    static let deleteRoute: UInt16 = 25  // RTM_DELROUTE
    static let getRoute: UInt16 = 26  // RTM_GETROUTE

    // linux/rtnetlink.h: multicast groups (the legacy RTMGRP_* bit masks for sockaddr_nl.nl_groups)
    static let groupLink: UInt32 = 0x1  // RTMGRP_LINK
    static let groupIPv4Address: UInt32 = 0x10  // RTMGRP_IPV4_IFADDR
    static let groupIPv4Route: UInt32 = 0x40  // RTMGRP_IPV4_ROUTE
    static let groupIPv6Address: UInt32 = 0x100  // RTMGRP_IPV6_IFADDR
    static let groupIPv6Route: UInt32 = 0x400  // RTMGRP_IPV6_ROUTE
    static let monitoredGroups = groupLink | groupIPv4Address | groupIPv4Route | groupIPv6Address | groupIPv6Route

    // linux/if_link.h: IFLA_*
    static let linkName: UInt16 = 3  // IFLA_IFNAME

    // linux/if_addr.h: IFA_*
    static let addressAddress: UInt16 = 1  // IFA_ADDRESS
    static let addressLocal: UInt16 = 2  // IFA_LOCAL

    // linux/rtnetlink.h: RTA_*
    static let routeDestination: UInt16 = 1  // RTA_DST
    static let routeOutputInterface: UInt16 = 4  // RTA_OIF
    static let routeGateway: UInt16 = 5  // RTA_GATEWAY
    static let routePriority: UInt16 = 6  // RTA_PRIORITY
    static let routeMultipath: UInt16 = 9  // RTA_MULTIPATH
    static let routeTable: UInt16 = 15  // RTA_TABLE

    // linux/rtnetlink.h: route types and tables
    static let routeTypeUnicast: UInt8 = 1  // RTN_UNICAST
    static let routeTypeLocal: UInt8 = 2  // RTN_LOCAL
    static let tableMain: UInt32 = 254  // RT_TABLE_MAIN
    static let tableLocal: UInt32 = 255  // RT_TABLE_LOCAL

    // linux/rtnetlink.h: address scopes (rt_scope_t)
    static let scopeUniverse: UInt8 = 0  // RT_SCOPE_UNIVERSE
    static let scopeSite: UInt8 = 200  // RT_SCOPE_SITE

    // linux/if.h: interface flags
    static let interfaceUp: UInt32 = 0x1  // IFF_UP
    static let interfaceLoopback: UInt32 = 0x8  // IFF_LOOPBACK
    static let interfaceRunning: UInt32 = 0x40  // IFF_RUNNING (operstate UP or UNKNOWN)

    // linux/if_arp.h: link types
    static let arpEther: UInt16 = 1  // ARPHRD_ETHER
    static let arpIEEE80211: UInt16 = 801  // ARPHRD_IEEE80211
    static let arpIEEE80211Radiotap: UInt16 = 803  // ARPHRD_IEEE80211_RADIOTAP
    static let arpRawIP: UInt16 = 519  // ARPHRD_RAWIP (qmi_wwan raw-ip, rmnet)
    static let arpLoopback: UInt16 = 772  // ARPHRD_LOOPBACK

    /// NLMSG_ALIGN / RTA_ALIGN: netlink pads messages and attributes to 4 bytes.
    static func aligned(_ length: Int) -> Int { (length + 3) & ~3 }

    static let headerSize = 16  // sizeof(struct nlmsghdr)
    static let linkMessageSize = 16  // sizeof(struct ifinfomsg)
    static let addressMessageSize = 8  // sizeof(struct ifaddrmsg)
    static let routeMessageSize = 12  // sizeof(struct rtmsg)
    static let attributeHeaderSize = 4  // sizeof(struct rtattr)
    static let nextHopSize = 8  // sizeof(struct rtnexthop)
}
