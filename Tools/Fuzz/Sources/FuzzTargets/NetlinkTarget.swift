import Foundation
@testable import Tapedeck

/// The rtnetlink message parser (`NetlinkParser`), and the routing state and reachability decision it feeds, as
/// the Linux reachability monitor uses them on every datagram.
enum NetlinkTarget {
    static let target = FuzzTarget(
        name: "netlink",
        summary: "NetlinkParser.parse, then RoutingState.apply and ReachabilityDecision.internet"
    ) { data in
        guard let envelopes = try? NetlinkParser.parse([UInt8](data)) else { return }
        var state = RoutingState()
        for envelope in envelopes {
            let effect = state.apply(envelope.message) { $0.isLoopback ? .loopback : .wired }
            if effect == .needsRouteResync { state.beginRouteResync() }
        }
        _ = ReachabilityDecision.internet(state)
    }
}
