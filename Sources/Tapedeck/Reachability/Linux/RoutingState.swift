/// What the monitor knows of the kernel's network state: links and their kinds, addresses, and default routes
/// (pure: it changes only through ``apply(_:classify:)``).
struct RoutingState: Sendable, Hashable {
    var links: [Int32: NetlinkLink] = [:]
    var kinds: [Int32: InterfaceKind] = [:]
    var addresses: Set<NetlinkAddress> = []
    /// Default routes (`0.0.0.0/0`, `::/0`) outside the local table; other routes matter only to the kernel's own
    /// route lookups, which host targets ask for.
    var defaultRoutes: Set<NetlinkRoute> = []

    /// What applying a message calls for.
    enum Effect: Sendable, Hashable {
        /// Nothing reachability depends on changed.
        case unchanged
        /// Something changed; re-evaluate.
        case changed
        /// A link went down or away: the kernel dropped the IPv4 routes through it without a notification, so the
        /// routes must be dumped again before re-evaluating.
        case needsRouteResync
    }

    /// Applies one message; `classify` names the kind of a link that is new or renamed.
    mutating func apply(_ message: NetlinkMessage, classify: (NetlinkLink) -> InterfaceKind) -> Effect {
        switch message {
        case .link(let link, let deleted):
            return applyLink(link, deleted: deleted, classify: classify)
        case .address(let address, let deleted):
            let changed = deleted ? addresses.remove(address) != nil : addresses.insert(address).inserted
            return changed ? .changed : .unchanged
        case .route(let route, let deleted):
            guard route.table != Netlink.tableLocal else { return .unchanged }
            guard route.isDefault else { return .changed }  // may change a host target's route
            if deleted { return removeDefaultRoute(route) ? .changed : .unchanged }
            return defaultRoutes.insert(route).inserted ? .changed : .unchanged
        case .done, .error, .ignored:
            return .unchanged
        }
    }

    /// Forgets every route before a fresh route dump is applied.
    mutating func beginRouteResync() { defaultRoutes.removeAll() }

    private mutating func applyLink(_ link: NetlinkLink, deleted: Bool,
                                    classify: (NetlinkLink) -> InterfaceKind) -> Effect {
        let previous = links[link.index]
        if deleted {
            links[link.index] = nil
            kinds[link.index] = nil
            addresses = addresses.filter { $0.interfaceIndex != link.index }
            defaultRoutes = defaultRoutes.filter { !$0.interfaces.contains(link.index) }
            return previous == nil ? .unchanged : .needsRouteResync
        }
        var link = link
        if link.name == nil { link.name = previous?.name }
        if previous == link { return .unchanged }
        if previous?.name != link.name || kinds[link.index] == nil { kinds[link.index] = classify(link) }
        links[link.index] = link
        if let previous, previous.isAdministrativelyUp != link.isAdministrativelyUp { return .needsRouteResync }
        return .changed
    }

    private mutating func removeDefaultRoute(_ route: NetlinkRoute) -> Bool {
        if defaultRoutes.remove(route) != nil { return true }
        // A deletion may carry fewer attributes than the addition did: match on what identifies a route.
        let matching = defaultRoutes.filter {
            $0.family == route.family && $0.table == route.table && $0.priority == route.priority
                && (route.interfaces.isEmpty || $0.interfaces == route.interfaces)
        }
        defaultRoutes.subtract(matching)
        return !matching.isEmpty
    }
}
