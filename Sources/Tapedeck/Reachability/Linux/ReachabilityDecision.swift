/// The status of a target, decided from the kernel's state without any I/O.
enum ReachabilityDecision {
    /// What the kernel answered when asked for the route to one address (RTM_GETROUTE with RTA_DST).
    enum RouteLookup: Sendable, Hashable {
        /// A route: its RTN_* type and outgoing interface.
        case route(type: UInt8, interface: Int32?)
        /// No route (`ENETUNREACH`, `EHOSTUNREACH`, a prohibit or blackhole route…).
        case unreachable(errno: Int32)
    }

    /// Any route to the internet: the best default route (lowest metric, then non-cellular) through an interface
    /// that is up, running, not loopback, and has a routable address of the route's family.
    static func internet(_ state: RoutingState) -> NetworkReachabilityManager.Status {
        var best: (priority: UInt32, kind: InterfaceKind)?
        for route in state.defaultRoutes where route.type == Netlink.routeTypeUnicast {
            for interface in route.interfaces {
                guard let link = state.links[interface], link.isUsable, !link.isLoopback,
                      state.addresses.contains(where: {
                          $0.interfaceIndex == interface && $0.address.family == route.family && $0.isRoutable
                      })
                else { continue }
                let kind = state.kinds[interface] ?? .other
                if let current = best,
                   (current.priority, current.kind == .wwan ? 1 : 0) <= (route.priority, kind == .wwan ? 1 : 0) {
                    continue
                }
                best = (route.priority, kind)
            }
        }
        return best?.kind.reachableStatus ?? .notReachable
    }

    /// A host: `lookups` has one entry per resolved address, in resolution order (empty when the name did not
    /// resolve). The first address routed through a usable interface decides; a local address (this machine)
    /// is reachable via Wi-Fi, as the loopback interface is not cellular.
    static func host(_ lookups: [RouteLookup], in state: RoutingState) -> NetworkReachabilityManager.Status {
        for lookup in lookups {
            guard case .route(let type, let interface) = lookup else { continue }
            if type == Netlink.routeTypeLocal { return .reachableViaWiFi }
            guard type == Netlink.routeTypeUnicast, let interface, let link = state.links[interface], link.isUsable
            else { continue }
            return (state.kinds[interface] ?? .other).reachableStatus
        }
        return .notReachable
    }
}
