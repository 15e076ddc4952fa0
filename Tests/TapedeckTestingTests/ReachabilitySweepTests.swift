import Foundation
import Tapedeck
import TapedeckCore
import TapedeckTesting
import Testing

/// A sync that asks reachability first: offline it queues, on cellular it skips the avatar, on Wi-Fi it loads
/// both; a request that fails for want of a network makes it stop where it is.
private struct ProfileSync {
    enum Outcome: Equatable { case queued, synced(avatar: Bool), interrupted(after: Int) }

    let transport: any HTTPTransport
    let reachability: NetworkReachabilityManager

    func run() async -> Outcome {
        guard reachability.isReachable else { return .queued }
        var loaded = 0
        do {
            _ = try await transport.send(HTTPRequest(url: ProfileClient.base.appendingPathComponent("me")))
            loaded += 1
            if reachability.isReachableViaWiFi {
                _ = try await transport.send(HTTPRequest(url: ProfileClient.base.appendingPathComponent("me/avatar")))
                loaded += 1
            }
            return .synced(avatar: loaded == 2)
        } catch let error as URLError where error.code == .notConnectedToInternet {
            return .interrupted(after: loaded)
        } catch {
            return .interrupted(after: -1)
        }
    }
}

@Suite struct ReachabilitySweepTests {
    @Test(.cassette("profileFlow"), arguments: ReachabilitySweep.cases)
    func theSyncDoesWhatEachNetworkAllows(_ condition: ReachabilitySweep.Case) async throws {
        try await condition.run { network, transport in
            let manager = NetworkReachabilityManager(source: .simulated(network))
            manager.startMonitoring()
            defer { manager.stopMonitoring() }
            await network.settle()
            #expect(TapedeckTest.currentNetwork === network)
            let outcome = await ProfileSync(transport: TapedeckTest.transport, reachability: manager).run()
            switch (condition.initial, condition.change) {
            case (.notReachable, _): #expect(outcome == .queued)
            case (.reachableViaWWAN, nil): #expect(outcome == .synced(avatar: false))
            case (.reachableViaWiFi, nil): #expect(outcome == .synced(avatar: true))
            case (.reachableViaWiFi, .notReachable?):
                #expect(outcome == .interrupted(after: 1))
                #expect(manager.networkReachabilityStatus == .notReachable)
            default: Issue.record("no expectation for \(condition)")
            }
        }
    }

    @Test func casesAreNamedAfterTheNetwork() {
        #expect(ReachabilitySweep.cases.map(\.testDescription) == [
            "offline", "Wi-Fi", "cellular", "Wi-Fi, then offline after 1 request(s)",
        ])
    }

    @Test func offlineRequestsFailAsURLSessionWouldWithoutReachingTheTransport() async throws {
        try await ReachabilitySweep.Case(.notReachable).run { _, transport in
            let error = await #expect(throws: URLError.self) {
                _ = try await transport.send(HTTPRequest(url: ProfileClient.base))
            }
            #expect(error?.code == .notConnectedToInternet)
        }
    }
}
