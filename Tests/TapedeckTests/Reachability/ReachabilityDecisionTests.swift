import Testing
@testable import Tapedeck

/// The status decision from kernel state, driven by netlink fixtures through ``RoutingState``.
@Suite struct ReachabilityDecisionTests {
    private var state = RoutingState()
    private var kinds: [String: InterfaceKind] = ["lo": .loopback, "eth0": .wired, "wlan0": .wifi, "wwan0": .wwan,
                                                  "tun0": .other]

    private mutating func apply(_ datagrams: [UInt8]...) throws -> [RoutingState.Effect] {
        let kinds = self.kinds
        return try NetlinkFixtures.messages(datagrams.flatMap { $0 }).map { message in
            state.apply(message) { kinds[$0.name ?? ""] ?? .other }
        }
    }

    private mutating func connect(_ name: String, index: Int32, address: String = "192.168.1.20",
                                  priority: UInt32? = nil) throws {
        _ = try apply(NetlinkFixtures.link(index: index, name: name, flags: NetlinkFixtures.up),
                      NetlinkFixtures.address(index: index, address, prefix: 24),
                      NetlinkFixtures.route(gateway: "192.168.1.1", interface: index, priority: priority))
    }

    @Test mutating func noDefaultRouteIsNotReachable() throws {
        _ = try apply(NetlinkFixtures.link(index: 1, name: "lo", flags: NetlinkFixtures.loopbackUp, arpType: 772),
                      NetlinkFixtures.address(index: 1, "127.0.0.1", prefix: 8, scope: 254),
                      NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.up),
                      NetlinkFixtures.address(index: 2, "192.168.1.20", prefix: 24),
                      NetlinkFixtures.route(destination: "192.168.1.0", length: 24, interface: 2))
        #expect(ReachabilityDecision.internet(state) == .notReachable)
    }

    @Test mutating func aDefaultRouteThroughWiredEthernetIsReportedAsWiFi() throws {
        try connect("eth0", index: 2)
        #expect(ReachabilityDecision.internet(state) == .reachableViaWiFi)
    }

    @Test mutating func aDefaultRouteThroughAModemIsWWAN() throws {
        try connect("wwan0", index: 5)
        #expect(ReachabilityDecision.internet(state) == .reachableViaWWAN)
    }

    @Test mutating func theLowestMetricDecidesAndNonCellularWinsATie() throws {
        try connect("wwan0", index: 5, priority: 50)
        try connect("wlan0", index: 3, priority: 600)
        #expect(ReachabilityDecision.internet(state) == .reachableViaWWAN)
        _ = try apply(NetlinkFixtures.route(gateway: "192.168.1.1", interface: 3, priority: 50))
        #expect(ReachabilityDecision.internet(state) == .reachableViaWiFi)
    }

    @Test mutating func losingCarrierOrTheAddressOrTheRouteMakesItUnreachable() throws {
        try connect("eth0", index: 2)
        #expect(try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.upWithoutCarrier))
                == [.changed])
        #expect(ReachabilityDecision.internet(state) == .notReachable)
        _ = try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.up))
        #expect(ReachabilityDecision.internet(state) == .reachableViaWiFi)
        _ = try apply(NetlinkFixtures.address(index: 2, "192.168.1.20", prefix: 24, deleted: true))
        #expect(ReachabilityDecision.internet(state) == .notReachable)
        _ = try apply(NetlinkFixtures.address(index: 2, "192.168.1.20", prefix: 24))
        #expect(ReachabilityDecision.internet(state) == .reachableViaWiFi)
        #expect(try apply(NetlinkFixtures.route(gateway: "192.168.1.1", interface: 2, deleted: true)) == [.changed])
        #expect(ReachabilityDecision.internet(state) == .notReachable)
    }

    @Test mutating func anAddressOfTheOtherFamilyOrOnlyLinkLocalDoesNotCount() throws {
        _ = try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.up),
                      NetlinkFixtures.address(index: 2, "fe80::1", prefix: 64, scope: 253),
                      NetlinkFixtures.address(index: 2, "2001:db8::20", prefix: 64),
                      NetlinkFixtures.route(family: .v6, gateway: "fe80::1", interface: 2))
        #expect(ReachabilityDecision.internet(state) == .reachableViaWiFi)
        _ = try apply(NetlinkFixtures.address(index: 2, "2001:db8::20", prefix: 64, deleted: true))
        #expect(ReachabilityDecision.internet(state) == .notReachable)
        _ = try apply(NetlinkFixtures.address(index: 2, "192.168.1.20", prefix: 24))
        #expect(ReachabilityDecision.internet(state) == .notReachable)  // an IPv4 address for an IPv6 route
    }

    @Test mutating func localTableAndNonUnicastDefaultsDoNotCount() throws {
        _ = try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.up),
                      NetlinkFixtures.address(index: 2, "192.168.1.20", prefix: 24),
                      NetlinkFixtures.route(interface: 2, table: 255, type: 2),
                      NetlinkFixtures.route(interface: nil, type: 7))  // unreachable default
        #expect(ReachabilityDecision.internet(state) == .notReachable)
    }

    @Test mutating func takingALinkDownCallsForARouteDumpAndDeletingItForgetsItsRoutes() throws {
        try connect("eth0", index: 2)
        #expect(try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.down))
                == [.needsRouteResync])
        #expect(ReachabilityDecision.internet(state) == .notReachable)
        #expect(try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.down)) == [.unchanged])
        #expect(try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.down, deleted: true))
                == [.needsRouteResync])
        #expect(state.defaultRoutes.isEmpty && state.addresses.isEmpty && state.links.isEmpty)
    }

    @Test mutating func aRenamedLinkIsClassifiedAgain() throws {
        try connect("eth0", index: 2)
        #expect(state.kinds[2] == .wired)
        _ = try apply(NetlinkFixtures.link(index: 2, name: "wwan0", flags: NetlinkFixtures.up))
        #expect(state.kinds[2] == .wwan)
        #expect(ReachabilityDecision.internet(state) == .reachableViaWWAN)
    }

    @Test mutating func hostsAreDecidedByTheKernelsRouteToTheirFirstRoutableAddress() throws {
        try connect("eth0", index: 2)
        try connect("wwan0", index: 5)
        #expect(ReachabilityDecision.host([], in: state) == .notReachable)  // did not resolve
        #expect(ReachabilityDecision.host([.unreachable(errno: 101)], in: state) == .notReachable)
        #expect(ReachabilityDecision.host([.unreachable(errno: 101), .route(type: 1, interface: 5)], in: state)
                == .reachableViaWWAN)
        #expect(ReachabilityDecision.host([.route(type: 2, interface: 1)], in: state) == .reachableViaWiFi)  // local
        #expect(ReachabilityDecision.host([.route(type: 1, interface: 9)], in: state) == .notReachable)  // unknown link
        _ = try apply(NetlinkFixtures.link(index: 2, name: "eth0", flags: NetlinkFixtures.upWithoutCarrier))
        #expect(ReachabilityDecision.host([.route(type: 1, interface: 2)], in: state) == .notReachable)
    }
}
