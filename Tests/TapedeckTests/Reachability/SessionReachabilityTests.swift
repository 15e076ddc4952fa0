import Foundation
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTesting

/// A session with a reachability manager fails fast while it reports not reachable, without reaching the server.
@Suite(.stubServer { $0.route(.get, "/hello", response: .text("world")) })
struct SessionReachabilityTests {
    let server: StubServer
    let network = SimulatedNetwork(status: .reachableViaWiFi)
    let reachability: NetworkReachabilityManager

    init() throws {
        server = try #require(TapedeckTest.currentStubServer)
        reachability = NetworkReachabilityManager(source: .simulated(network))
    }

    @Test func whileNotReachableATaskFailsWithNotConnectedToInternetAndSendsNothing() async throws {
        reachability.startMonitoring()
        await network.transition(to: .notReachable)
        let manager = SessionManager(transport: TapedeckTest.transport, responseSerializer: StringResponseSerializer(),
                                     reachability: reachability)
        let url = server.url("/hello")
        let task = manager.dataTask(with: HTTPRequest(url: url))
        task.resume()
        let error = try #require(await task.result.error as? URLError)
        #expect(error.code == .notConnectedToInternet && error.errorCode == -1009)
        #expect(error.failingURL == url)
        #expect(error.localizedDescription.contains("reachability manager"))
        #expect(task.state == .completed)
        #expect(server.journal.entries.isEmpty)

        await network.transition(to: .reachableViaWiFi)
        let again = manager.dataTask(with: HTTPRequest(url: url))
        again.resume()
        let result = await again.result
        #expect(result.error == nil && result.value as? String == "world")
        #expect(server.journal.entries.count == 1)
    }

    @Test func anUnknownStatusOrTurningTheOptionOffLetsRequestsThrough() async throws {
        let manager = SessionManager(transport: TapedeckTest.transport, responseSerializer: StringResponseSerializer(),
                                     reachability: reachability)
        let first = manager.dataTask(with: HTTPRequest(url: server.url("/hello")))
        first.resume()
        #expect(await first.result.error == nil)  // not monitoring: unknown

        reachability.startMonitoring()
        await network.transition(to: .notReachable)
        manager.failsWhenNotReachable = false
        let second = manager.dataTask(with: HTTPRequest(url: server.url("/hello")))
        second.resume()
        #expect(await second.result.error == nil)
        #expect(server.journal.entries.count == 2)
        #expect(manager.reachability === reachability)
    }

    @Test func aDownloadFailsFastTooAndLeavesNoFile() async throws {
        reachability.startMonitoring()
        await network.transition(to: .notReachable)
        let manager = SessionManager(transport: TapedeckTest.transport, reachability: reachability)
        let task = manager.downloadTask(with: HTTPRequest(url: server.url("/hello")))
        task.resume()
        let result = await task.result
        #expect((result.error as? URLError)?.code == .notConnectedToInternet)
        #expect(result.fileURL == nil)
        #expect(server.journal.entries.isEmpty)
    }
}
