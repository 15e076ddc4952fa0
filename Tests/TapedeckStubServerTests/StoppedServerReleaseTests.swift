import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
@testable import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// A stopped server lets go of its state even while a delayed answer's timer is still pending.
    @Suite struct StoppedServerReleaseTests {
        @Test func aPendingDelayKeepsNothingOnceTheServerStopped() async throws {
            var server: StubServer? = try StubServer()
            server?.route(.get, "/slow", response: StubResponse.text("late").delayed(by: .seconds(300)))
            let url = try #require(server?.url("/slow"))
            weak let core = server?.core
            let request = Task { try? await CurlTransport().send(HTTPRequest(url: url)) }
            // Bounded: until the request has arrived (and its answer waits for the delay).
            for _ in 0..<1_000 where server?.journal.entries.isEmpty ?? false {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server?.journal.entries.count == 1)
            server?.stop()
            request.cancel()
            _ = await request.value
            server = nil
            // Bounded: the daemon's threads have let go once stop() returned; the request's task may take a moment.
            for _ in 0..<500 where core != nil {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(core == nil, "the delay's timer kept the stopped server's core")
        }
    }
}
