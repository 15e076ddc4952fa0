import TapedeckCore

/// A scripted network for tests: managers built with ``NetworkReachabilityManager/Source/simulated(_:)`` see
/// its status, and ``transition(to:)`` returns once every monitoring manager has delivered the change.
///
/// Every target (internet, domain, address) sees the same status.
///
/// ```swift
/// let network = SimulatedNetwork(status: .reachableViaWiFi)
/// let manager = NetworkReachabilityManager(source: .simulated(network))
/// manager.startMonitoring()
/// await network.settle()                       // the first value is delivered
/// await network.transition(to: .notReachable)  // handler ran, notification posted, streams yielded
/// #expect(manager.networkReachabilityStatus == .notReachable)
/// ```
public final class SimulatedNetwork: Sendable {
    private struct State {
        var status: NetworkReachabilityManager.Status
        var receivers: [Int: StatusReceiver] = [:]
        var nextIdentifier = 0
        var pendingDeliveries = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// Creates a network whose status is `status` until a transition; a manager that starts monitoring receives
    /// it as its first value (`.unknown` delivers nothing).
    public init(status: NetworkReachabilityManager.Status = .reachableViaWiFi) {
        state = Locked(State(status: status))
    }

    /// The scripted status.
    public var status: NetworkReachabilityManager.Status { state.withLock { $0.status } }

    /// How many managers are monitoring this network.
    public var monitorCount: Int { state.withLock { $0.receivers.count } }

    /// Changes the status and returns once every monitoring manager has delivered it: its status-change handler
    /// has run on its delivery queue, its notification has been posted and its streams have the value.
    public func transition(to status: NetworkReachabilityManager.Status) async {
        let receivers = state.withLock { state -> [StatusReceiver] in
            state.status = status
            state.pendingDeliveries += state.receivers.count
            return state.receivers.keys.sorted().compactMap { state.receivers[$0] }
        }
        for receiver in receivers { receiver(status, delivered: deliveryFinished) }
        await settle()
    }

    /// Returns once every delivery under way (such as the first value after `startMonitoring()`) is done.
    public func settle() async {
        await state.wait { state, continuation in
            guard state.pendingDeliveries > 0 else { return () }
            state.idleWaiters.append(continuation)
            return nil
        }
    }

    func attach(_ receiver: StatusReceiver) -> any ReachabilityMonitor {
        let (identifier, status) = state.withLock { state in
            defer { state.nextIdentifier += 1 }
            state.receivers[state.nextIdentifier] = receiver
            state.pendingDeliveries += 1
            return (state.nextIdentifier, state.status)
        }
        receiver(status, delivered: deliveryFinished)
        return Subscription(network: self, identifier: identifier)
    }

    private var deliveryFinished: @Sendable () -> Void {
        { [self] in
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.pendingDeliveries -= 1
                guard state.pendingDeliveries == 0 else { return [] }
                defer { state.idleWaiters.removeAll() }
                return state.idleWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    private struct Subscription: ReachabilityMonitor {
        let network: SimulatedNetwork
        let identifier: Int

        func stop() { network.state.withLock { _ = $0.receivers.removeValue(forKey: identifier) } }
    }
}
