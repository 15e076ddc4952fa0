#if os(Linux)
import TapedeckCore
import Foundation
import Glibc

/// The Linux system source: one thread blocked in `poll` on an rtnetlink socket (and a wake pipe to stop it),
/// keeping a ``RoutingState`` from a dump at start plus every link, address and route notification, and
/// re-evaluating the target after each batch of changes. No timer, no polling loop.
///
/// The internet target is decided on the thread from the state alone. A domain or address target needs name
/// resolution and route lookups, which block, so those run on a serial evaluation queue, coalescing bursts.
final class SystemReachabilityMonitor: ReachabilityMonitor {
    private let target: NetworkReachabilityManager.Target
    private let receiver: StatusReceiver
    private let wakePipe: WakePipe
    private let published = Locked(Published())
    private let finished = DispatchSemaphore(value: 0)
    private let evaluationQueue = DispatchQueue(label: "com.tapedeck.reachability.evaluation")

    private struct Published {
        var state = RoutingState()
        var stopped = false
        var evaluationQueued = false
        var thread: pthread_t?
    }

    init(target: NetworkReachabilityManager.Target, receiver: StatusReceiver) throws(NetworkReachabilityError) {
        self.target = target
        self.receiver = receiver
        wakePipe = try WakePipe()
        // Opened here so that a failure is reported by startMonitoring(); the thread owns it from now on.
        let socket = try NetlinkSocket(groups: Netlink.monitoredGroups)
        let thread = Thread { [self] in
            run(socket)
            finished.signal()
        }
        thread.name = "tapedeck.reachability"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    func stop() {
        let (alreadyStopped, thread) = published.withLock { state in
            defer { state.stopped = true }
            return (state.stopped, state.thread)
        }
        guard !alreadyStopped else { return }
        wakePipe.wake()
        // The last reference to a manager can go away on this thread (while it reports); it must not wait for itself.
        if let thread, pthread_equal(thread, pthread_self()) != 0 { return }
        finished.wait()
    }

    // MARK: The monitor thread

    /// Dumps still to run and the one in flight: while any is pending, nothing is evaluated.
    private struct Sync {
        var queue: [UInt16] = [Netlink.getLink, Netlink.getAddress, Netlink.getRoute]
        var current: UInt16?
        var sequence: UInt32 = 0
    }

    private func run(_ initialSocket: NetlinkSocket) {
        published.withLock { $0.thread = pthread_self() }
        var socket = initialSocket
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var working = RoutingState()
        var sync: Sync? = Sync()
        var needsEvaluation = true
        var lastReported: NetworkReachabilityManager.Status?
        let sysfs = SysfsInterfaceReader()
        let classify = { (link: NetlinkLink) in sysfs.facts(name: link.name ?? "", arpType: link.arpType).kind }

        do {
            while !published.withLock({ $0.stopped }) {
                if var pending = sync, pending.current == nil, !pending.queue.isEmpty {
                    let next = pending.queue.removeFirst()
                    pending.sequence &+= 1
                    pending.current = next
                    if next == Netlink.getRoute { working.beginRouteResync() }
                    try socket.send(NetlinkRequest.dump(next, sequence: pending.sequence))
                    sync = pending
                }
                guard waitForInput(socket) else { return }
                drain: while true {
                    switch try socket.receive(into: &buffer, wait: false) {
                    case .empty:
                        break drain
                    case .overflow:
                        // Notifications were lost: start over with a fresh socket and full dumps.
                        socket = try NetlinkSocket(groups: Netlink.monitoredGroups)
                        working = RoutingState()
                        sync = Sync()
                        needsEvaluation = true
                        break drain
                    case .datagram(let bytes):
                        for envelope in try parse(bytes) {
                            if handle(envelope, working: &working, sync: &sync, classify: classify) {
                                needsEvaluation = true
                            }
                        }
                    }
                }
                guard sync == nil, needsEvaluation else { continue }
                needsEvaluation = false
                published.withLock { $0.state = working }
                if case .internet = target.kind {
                    let status = ReachabilityDecision.internet(working)
                    if status != lastReported { receiver(status) }
                    lastReported = status
                } else {
                    scheduleHostEvaluation()
                }
            }
        } catch {
            // The socket failed in a way a fresh dump cannot repair: the status is no longer known.
            receiver(.unknown)
        }
    }

    /// Blocks until the socket has data (true) or the wake pipe was written (false).
    private func waitForInput(_ socket: NetlinkSocket) -> Bool {
        var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && descriptors[1].revents == 0
        }
    }

    private func parse(_ bytes: [UInt8]) throws(NetworkReachabilityError) -> [NetlinkEnvelope] {
        do { return try NetlinkParser.parse(bytes) } catch {
            throw .systemMonitorFailed(operation: "parse rtnetlink message (\(error))", errno: EBADMSG)
        }
    }

    /// Applies one message; returns whether the target needs re-evaluating.
    private func handle(_ envelope: NetlinkEnvelope, working: inout RoutingState, sync: inout Sync?,
                        classify: (NetlinkLink) -> InterfaceKind) -> Bool {
        if var pending = sync, let current = pending.current, envelope.sequence == pending.sequence {
            switch envelope.message {
            case .done(let interrupted):
                // An interrupted dump missed changes made while it ran: repeat it.
                if interrupted { pending.queue.insert(current, at: 0) }
                pending.current = nil
                sync = pending.queue.isEmpty ? nil : pending
                return true
            case .error(let code) where code != 0:
                // EBUSY: another dump was still running on the socket; anything else will not get better.
                if code == EBUSY || code == EINTR { pending.queue.insert(current, at: 0) }
                pending.current = nil
                sync = pending.queue.isEmpty ? nil : pending
                return true
            default:
                break
            }
        }
        switch working.apply(envelope.message, classify: classify) {
        case .unchanged:
            return false
        case .changed:
            return true
        case .needsRouteResync:
            var pending = sync ?? Sync(queue: [])
            if !pending.queue.contains(Netlink.getRoute) { pending.queue.append(Netlink.getRoute) }
            sync = pending
            return true
        }
    }

    // MARK: Host targets

    private func scheduleHostEvaluation() {
        let alreadyQueued = published.withLock { state -> Bool in
            defer { state.evaluationQueued = true }
            return state.evaluationQueued
        }
        guard !alreadyQueued else { return }
        evaluationQueue.async { [self] in
            published.withLock { $0.evaluationQueued = false }
            guard !published.withLock({ $0.stopped }) else { return }
            let addresses: [IPAddress]
            switch target.kind {
            case .internet: return
            case .address(let address): addresses = [address]
            case .domain(let name): addresses = HostRouteLookup.resolve(name)
            }
            let lookups = (try? HostRouteLookup.routes(to: addresses)) ?? []
            let (state, stopped) = published.withLock { ($0.state, $0.stopped) }
            guard !stopped else { return }
            receiver(ReachabilityDecision.host(lookups, in: state))
        }
    }
}
#endif
