extension NetworkReachabilityManager {
    /// Where statuses come from: the running system, or a ``SimulatedNetwork`` a test scripts.
    ///
    /// ```swift
    /// let live = NetworkReachabilityManager(source: .system)
    /// let network = SimulatedNetwork(status: .reachableViaWiFi)
    /// let scripted = NetworkReachabilityManager(source: .simulated(network))
    /// ```
    public struct Source: Sendable {
        let start: @Sendable (Target, StatusReceiver) throws(NetworkReachabilityError) -> any ReachabilityMonitor

        /// The kernel's view. On Linux: an rtnetlink socket subscribed to link, address and route changes,
        /// read by one thread that sleeps in `poll` while nothing changes; interfaces are classified from
        /// `/sys/class/net` (wireless is Wi-Fi, wwan/cellular is WWAN, wired Ethernet is reported as Wi-Fi).
        public static let system = Source { target, receiver throws(NetworkReachabilityError) in
            #if os(Linux)
            try SystemReachabilityMonitor(target: target, receiver: receiver)
            #else
            throw NetworkReachabilityError.unsupportedPlatform
            #endif
        }

        /// Statuses scripted by `network`: every target sees the network's status.
        public static func simulated(_ network: SimulatedNetwork) -> Source {
            Source { _, receiver in network.attach(receiver) }
        }
    }
}

/// A running source of statuses; stopping it is final and synchronous (no report follows `stop()`'s return
/// that the manager would accept, as the manager also checks its monitoring generation).
protocol ReachabilityMonitor: Sendable {
    func stop()
}

/// Where a monitor reports statuses. `delivered` runs once the status has reached the manager's handler,
/// notification and streams (or at once, when it changes nothing).
struct StatusReceiver: Sendable {
    let report: @Sendable (NetworkReachabilityManager.Status, _ delivered: (@Sendable () -> Void)?) -> Void

    func callAsFunction(_ status: NetworkReachabilityManager.Status, delivered: (@Sendable () -> Void)? = nil) {
        report(status, delivered)
    }
}
