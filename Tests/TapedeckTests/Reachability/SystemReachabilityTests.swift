import Foundation
import Testing
import Tapedeck

/// The system source on this machine, with loopback targets only (no packet leaves the machine).
@Suite struct SystemReachabilityTests {
    @Test func aLoopbackAddressIsReachableViaWiFi() async throws {
        let manager = try NetworkReachabilityManager.forAddress("127.0.0.1")
        manager.startMonitoring()
        defer { manager.stopMonitoring() }
        #expect(manager.monitoringError == nil)
        #expect(await manager.firstKnownStatus() == .reachableViaWiFi)
    }

    @Test func localhostResolvesToThisMachineAndIsReachable() async throws {
        let manager = try NetworkReachabilityManager.forDomain("localhost")
        manager.startMonitoring()
        defer { manager.stopMonitoring() }
        #expect(await manager.firstKnownStatus() == .reachableViaWiFi)
    }

    @Test func theInternetTargetProducesAFirstValueAndStopsCleanly() async throws {
        let manager = NetworkReachabilityManager()
        #expect(manager.networkReachabilityStatus == .unknown)
        manager.startMonitoring()
        let first = await manager.firstKnownStatus()
        #expect(first != nil && manager.networkReachabilityStatus == first)
        manager.stopMonitoring()  // joins the monitor thread
        #expect(manager.networkReachabilityStatus == .unknown && !manager.isMonitoring)
        manager.startMonitoring()
        #expect(await manager.firstKnownStatus() == first)
        manager.stopMonitoring()
    }
}
