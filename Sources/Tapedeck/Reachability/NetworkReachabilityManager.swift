import Foundation
import TapedeckCore

/// Watches whether a host, an address or the internet at large can be reached, and over what kind of link:
/// AFNetworking's `AFNetworkReachabilityManager`.
///
/// The status is ``Status/unknown`` until monitoring has produced its first value. Changes reach the status-change
/// handler (on ``deliveryQueue``), every ``statuses()`` stream, and a `Foundation/Notification/Name/tapedeckReachabilityDidChange`
/// notification whose `userInfo[NetworkReachabilityManager.statusUserInfoKey]` is the new ``Status``.
///
/// Reachability says a route exists, not that a request will succeed: use it to explain failures or to retry when
/// the network comes back, not to gate requests you could simply try.
///
/// ```swift
/// let reachability = NetworkReachabilityManager.shared
/// reachability.setReachabilityStatusChangeHandler { status in
///     print("network:", status)                       // "Reachable via WiFi"
/// }
/// reachability.startMonitoring()
/// for await status in reachability.statuses() where status.isReachable { break }
/// ```
public final class NetworkReachabilityManager: Sendable {
    /// The `userInfo` key of `Foundation/Notification/Name/tapedeckReachabilityDidChange` holding the ``Status``.
    public static let statusUserInfoKey = "com.tapedeck.reachability.status"

    /// A manager for any route to the internet (a default route through an up interface with an address), on the
    /// system source.
    public static let shared = NetworkReachabilityManager()

    /// What this manager watches.
    public let target: Target
    /// Where notifications are posted.
    public let notificationCenter: NotificationCenter
    private let source: Source
    private let state: Locked<State>

    private struct State {
        var status: Status = .unknown
        var generation = 0
        var isMonitoring = false
        var monitor: (any ReachabilityMonitor)?
        var monitoringError: NetworkReachabilityError?
        var handler: (@Sendable (Status) -> Void)?
        var deliveryQueue: DispatchQueue
        var observers: [Int: AsyncStream<Status>.Continuation] = [:]
        var nextObserver = 0
    }

    /// Creates a manager; it does nothing until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - target: what to watch; any route to the internet by default.
    ///   - source: where statuses come from; the running system by default.
    ///   - deliveryQueue: where the status-change handler runs and the notification is posted; a private serial
    ///     queue by default (AFNetworking uses the main queue: pass `.main` on a platform with a main run loop).
    ///   - notificationCenter: where `Foundation/Notification/Name/tapedeckReachabilityDidChange` is posted.
    public init(
        target: Target = .internet,
        source: Source = .system,
        deliveryQueue: DispatchQueue = DispatchQueue(label: "com.tapedeck.reachability.delivery"),
        notificationCenter: NotificationCenter = .default
    ) {
        self.target = target
        self.source = source
        self.notificationCenter = notificationCenter
        state = Locked(State(deliveryQueue: deliveryQueue))
    }

    /// A manager for a host name (AFNetworking's `managerForDomain:`).
    ///
    /// ```swift
    /// let api = try NetworkReachabilityManager.forDomain("api.example.com")
    /// ```
    /// - Throws: ``NetworkReachabilityError/invalidDomain(_:reason:)`` when `domain` is not a host name.
    public static func forDomain(_ domain: String, source: Source = .system) throws(NetworkReachabilityError)
        -> NetworkReachabilityManager {
        NetworkReachabilityManager(target: try .domain(domain), source: source)
    }

    /// A manager for an IPv4 or IPv6 address (AFNetworking's `managerForAddress:`).
    ///
    /// ```swift
    /// let gateway = try NetworkReachabilityManager.forAddress("192.168.1.1")
    /// ```
    /// - Throws: ``NetworkReachabilityError/invalidAddress(_:reason:)`` when `address` is not an address literal.
    public static func forAddress(_ address: String, source: Source = .system) throws(NetworkReachabilityError)
        -> NetworkReachabilityManager {
        NetworkReachabilityManager(target: try .address(address), source: source)
    }

    deinit {
        let (monitor, observers) = state.withLock { ($0.monitor, Array($0.observers.values)) }
        monitor?.stop()
        for observer in observers { observer.finish() }
    }

    // MARK: Status

    /// The current status; ``Status/unknown`` until monitoring has produced its first value, and again after
    /// ``stopMonitoring()``.
    public var networkReachabilityStatus: Status { state.withLock { $0.status } }
    /// Whether the target is reachable by any interface.
    public var isReachable: Bool { networkReachabilityStatus.isReachable }
    /// Whether the target is reachable through a cellular interface.
    public var isReachableViaWWAN: Bool { networkReachabilityStatus.isReachableViaWWAN }
    /// Whether the target is reachable through Wi-Fi, wired Ethernet or another non-cellular interface.
    public var isReachableViaWiFi: Bool { networkReachabilityStatus.isReachableViaWiFi }
    /// Whether ``startMonitoring()`` has run (successfully) and ``stopMonitoring()`` has not.
    public var isMonitoring: Bool { state.withLock { $0.isMonitoring } }
    /// Why the last ``startMonitoring()`` could not watch the system (the status then stays unknown), or `nil`.
    public var monitoringError: NetworkReachabilityError? { state.withLock { $0.monitoringError } }

    /// Where the status-change handler runs and the notification is posted.
    public var deliveryQueue: DispatchQueue {
        get { state.withLock { $0.deliveryQueue } }
        set { state.withLock { $0.deliveryQueue = newValue } }
    }

    // MARK: Monitoring

    /// Starts watching; the first value arrives shortly after (asynchronously). Calling it again while monitoring
    /// does nothing. If the system cannot be watched, ``monitoringError`` says why and the status stays unknown.
    public func startMonitoring() {
        let generation = state.withLock { state -> Int? in
            guard !state.isMonitoring else { return nil }
            state.generation += 1
            state.isMonitoring = true
            state.monitoringError = nil
            return state.generation
        }
        guard let generation else { return }
        let receiver = StatusReceiver { [weak self] status, delivered in
            guard let self else { delivered?(); return }
            self.receive(status, generation: generation, delivered: delivered)
        }
        do {
            let monitor = try source.start(target, receiver)
            let superseded = state.withLock { state -> Bool in
                guard state.generation == generation, state.isMonitoring else { return true }
                state.monitor = monitor
                return false
            }
            if superseded { monitor.stop() }
        } catch {
            state.withLock { state in
                guard state.generation == generation else { return }
                state.isMonitoring = false
                state.monitoringError = error
            }
        }
    }

    /// Stops watching; the status reads ``Status/unknown`` again (without a delivery), and no later change is
    /// delivered until monitoring starts again.
    public func stopMonitoring() {
        let monitor = state.withLock { state -> (any ReachabilityMonitor)? in
            guard state.isMonitoring else { return nil }
            state.generation += 1
            state.isMonitoring = false
            state.status = .unknown
            defer { state.monitor = nil }
            return state.monitor
        }
        monitor?.stop()
    }

    // MARK: Observing

    /// Sets (or with `nil` removes) the closure called on ``deliveryQueue`` with each new status
    /// (AFNetworking's `setReachabilityStatusChangeBlock:`).
    public func setReachabilityStatusChangeHandler(_ handler: (@Sendable (Status) -> Void)?) {
        state.withLock { $0.handler = handler }
    }

    /// A stream that starts with the current status and then yields each change, until the consumer stops
    /// iterating or the manager is released. It keeps the newest 32 values a slow consumer has not read.
    public func statuses() -> AsyncStream<Status> {
        let (stream, continuation) = AsyncStream<Status>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let identifier = state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = continuation
            continuation.yield(state.status)
            return state.nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: identifier) }
        }
        return stream
    }

    /// Records a status a monitor reported and delivers it if it is a change.
    private func receive(_ status: Status, generation: Int, delivered: (@Sendable () -> Void)?) {
        let delivery = state.withLock { state -> (DispatchQueue, (@Sendable (Status) -> Void)?)? in
            guard state.generation == generation, state.isMonitoring, state.status != status else { return nil }
            state.status = status
            for observer in state.observers.values { observer.yield(status) }
            return (state.deliveryQueue, state.handler)
        }
        guard let (queue, handler) = delivery else { delivered?(); return }
        queue.async { [notificationCenter] in
            handler?(status)
            notificationCenter.post(name: .tapedeckReachabilityDidChange, object: self,
                                    userInfo: [NetworkReachabilityManager.statusUserInfoKey: status])
            delivered?()
        }
    }
}

extension Notification.Name {
    /// Posted on the manager's delivery queue when a ``NetworkReachabilityManager``'s status changes; the object is
    /// the manager and `userInfo[NetworkReachabilityManager.statusUserInfoKey]` the new
    /// ``NetworkReachabilityManager/Status`` (AFNetworking's `AFNetworkingReachabilityDidChangeNotification`).
    public static let tapedeckReachabilityDidChange = Notification.Name("com.tapedeck.networking.reachability.change")
}
