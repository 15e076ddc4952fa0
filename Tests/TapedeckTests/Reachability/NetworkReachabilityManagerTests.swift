import Foundation
import Testing
import Tapedeck
import TapedeckCore

/// The manager driven deterministically by a ``SimulatedNetwork``.
@Suite struct NetworkReachabilityManagerTests {
    let network = SimulatedNetwork(status: .reachableViaWiFi)
    let center = NotificationCenter()

    private func manager(target: NetworkReachabilityManager.Target = .internet,
                         queue: DispatchQueue = DispatchQueue(label: "test.reachability")) -> NetworkReachabilityManager {
        NetworkReachabilityManager(target: target, source: .simulated(network), deliveryQueue: queue,
                                   notificationCenter: center)
    }

    @Test func theStatusIsUnknownUntilMonitoringProducesItsFirstValue() async {
        let manager = manager()
        #expect(manager.networkReachabilityStatus == .unknown && !manager.isReachable && !manager.isMonitoring)
        await network.transition(to: .reachableViaWWAN)  // not monitoring: nothing changes
        #expect(manager.networkReachabilityStatus == .unknown)
        manager.startMonitoring()
        await network.settle()
        #expect(manager.networkReachabilityStatus == .reachableViaWWAN)
        #expect(manager.isReachable && manager.isReachableViaWWAN && !manager.isReachableViaWiFi && manager.isMonitoring)
    }

    @Test func eachTransitionReachesTheHandlerOnItsQueueThenTheNotification() async {
        let queue = DispatchQueue(label: "test.delivery")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "delivery")
        let manager = manager(queue: queue)
        let seen = Locked<[String]>([])
        manager.setReachabilityStatusChangeHandler { status in
            let onQueue = DispatchQueue.getSpecific(key: key) == "delivery"
            seen.withLock { $0.append("handler \(status.rawValue) \(onQueue)") }
        }
        let observer = center.addObserver(forName: .tapedeckReachabilityDidChange, object: manager, queue: nil) { note in
            let status = note.userInfo?[NetworkReachabilityManager.statusUserInfoKey] as? NetworkReachabilityManager.Status
            seen.withLock { $0.append("note \(status?.rawValue ?? -9)") }
        }
        defer { center.removeObserver(observer) }

        manager.startMonitoring()
        await network.settle()
        await network.transition(to: .notReachable)
        await network.transition(to: .notReachable)  // no change, no delivery
        await network.transition(to: .reachableViaWWAN)
        #expect(seen.withLock { $0 } == ["handler 2 true", "note 2", "handler 0 true", "note 0",
                                         "handler 1 true", "note 1"])
    }

    @Test func aStreamStartsWithTheCurrentStatusAndYieldsEachChange() async {
        let manager = manager()
        var statuses = manager.statuses().makeAsyncIterator()
        #expect(await statuses.next() == .unknown)
        manager.startMonitoring()
        await network.settle()
        await network.transition(to: .notReachable)
        await network.transition(to: .reachableViaWiFi)
        #expect(await statuses.next() == .reachableViaWiFi)
        #expect(await statuses.next() == .notReachable)
        #expect(await statuses.next() == .reachableViaWiFi)
        var late = manager.statuses().makeAsyncIterator()
        #expect(await late.next() == .reachableViaWiFi)
    }

    @Test func stoppingForgetsTheStatusAndIgnoresLaterTransitions() async {
        let manager = manager()
        let calls = Locked(0)
        manager.setReachabilityStatusChangeHandler { _ in calls.withLock { $0 += 1 } }
        manager.startMonitoring()
        manager.startMonitoring()  // a second start does nothing
        await network.settle()
        #expect(network.monitorCount == 1 && calls.withLock { $0 } == 1)
        manager.stopMonitoring()
        #expect(manager.networkReachabilityStatus == .unknown && !manager.isMonitoring && network.monitorCount == 0)
        await network.transition(to: .notReachable)
        #expect(manager.networkReachabilityStatus == .unknown && calls.withLock { $0 } == 1)
        manager.startMonitoring()
        await network.settle()
        #expect(manager.networkReachabilityStatus == .notReachable && calls.withLock { $0 } == 2)
    }

    @Test func removingTheHandlerStopsItsCalls() async {
        let manager = manager()
        let calls = Locked(0)
        manager.setReachabilityStatusChangeHandler { _ in calls.withLock { $0 += 1 } }
        manager.startMonitoring()
        await network.settle()
        manager.setReachabilityStatusChangeHandler(nil)
        await network.transition(to: .notReachable)
        #expect(calls.withLock { $0 } == 1 && manager.networkReachabilityStatus == .notReachable)
    }

    @Test func domainAndAddressManagersSeeTheSimulatedNetworkToo() async throws {
        let domain = try NetworkReachabilityManager.forDomain("api.example.com", source: .simulated(network))
        let address = try NetworkReachabilityManager.forAddress("10.200.0.1", source: .simulated(network))
        let expectedDomain = try NetworkReachabilityManager.Target.domain("api.example.com")
        let expectedAddress = try NetworkReachabilityManager.Target.address("10.200.0.1")
        #expect(domain.target == expectedDomain && address.target == expectedAddress)
        domain.startMonitoring()
        address.startMonitoring()
        await network.transition(to: .reachableViaWWAN)
        #expect(domain.networkReachabilityStatus == .reachableViaWWAN && address.networkReachabilityStatus == .reachableViaWWAN)
    }

    @Test func aReleasedManagerLeavesTheNetworkAndFinishesItsStreams() async {
        var manager: NetworkReachabilityManager? = manager()
        let stream = manager!.statuses()
        manager!.startMonitoring()
        await network.settle()
        #expect(network.monitorCount == 1)
        manager = nil
        #expect(network.monitorCount == 0)
        var received: [NetworkReachabilityManager.Status] = []
        for await status in stream { received.append(status) }
        #expect(received == [.unknown, .reachableViaWiFi])
    }
}
