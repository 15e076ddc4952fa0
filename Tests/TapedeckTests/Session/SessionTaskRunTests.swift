import Foundation
import Synchronization
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// `SessionTask.run()`: the async primitive runs the task in the caller's context, yet the task stays the
/// AFNetworking task others can suspend and cancel, and cancelling it never cancels the caller.
@Suite struct SessionTaskRunTests {
    let server: StubServer
    let manager: SessionManager

    init() throws {
        server = try StubServer()
        // Answered only after the tests are over: a request to it ends early only by being cancelled.
        server.route(.get, "/slow", response: StubResponse.json(["late": true]).delayed(by: .seconds(120)))
        server.route(.get, "/quick", response: .json(["ok": true]))
        server.route(.get, "/file", response: .text(String(repeating: "x", count: 1000)).dribbled(bytesPerChunk: 100, interval: .milliseconds(100)))
        // The first request is answered only after the tests are over (ten minutes, longer than any wait below), so
        // it is still running whenever the test suspends it, however loaded the machine; the request started again
        // on resume is answered at once.
        let firstAnswered = Atomic<Bool>(false)
        server.route(.get, "/late-then-quick") { _ in
            let body = StubResponse.text(String(repeating: "x", count: 1000))
            return firstAnswered.exchange(true, ordering: .relaxed) ? body : body.delayed(by: .seconds(600))
        }
        manager = SessionManager(transport: CurlTransport())
    }

    @Test func runReturnsTheResultAndTheTaskIsDone() async throws {
        defer { server.stop() }
        let task = manager.dataTask(with: HTTPRequest(url: server.url("/quick")))
        let result = await task.run()
        #expect(result.response?.statusCode == 200)
        #expect(result.value as? JSONValue == ["ok": true])
        #expect(task.state == .completed)
        #expect(manager.tasks.isEmpty)
    }

    @Test func cancellingTheTaskEndsRunAtOnceAndLeavesTheCallerUncancelled() async throws {
        defer { server.stop() }
        let task = manager.dataTask(with: HTTPRequest(url: server.url("/slow")))
        let canceller = Task {
            try await server.waitForRequest()
            task.cancel()
        }
        let result = await task.run()
        #expect((result.error as? URLError)?.code == .cancelled)
        #expect(!Task.isCancelled)
        let next = await manager.dataTask(with: HTTPRequest(url: server.url("/quick"))).run()
        #expect(next.response?.statusCode == 200, "the caller can go on making requests")
        _ = try await canceller.value
    }

    @Test func invalidatingTheManagerCancelsAnAsyncVerbInFlight() async throws {
        defer { server.stop() }
        let api = HTTPSessionManager(baseURL: server.url("/"), transport: CurlTransport())
        let invalidator = Task {
            try await server.waitForRequest()
            api.session.invalidateAndCancel()
        }
        await #expect(throws: URLError.self) { try await api.get("slow") }
        _ = try await invalidator.value
    }

    @Test func cancellingTheCallerCancelsTheTask() async throws {
        defer { server.stop() }
        let task = manager.dataTask(with: HTTPRequest(url: server.url("/slow")))
        let caller = Task { await task.run() }
        try await server.waitForRequest()
        caller.cancel()
        let result = await caller.value
        #expect((result.error as? URLError)?.code == .cancelled)
        #expect(task.state == .completed)
    }

    @Test func aSuspendedRunWaitsForResume() async throws {
        defer { server.stop() }
        // The request may wait as long as the test does: its client-side limit is not what is tested here.
        let task = manager.dataTask(with: HTTPRequest(url: server.url("/late-then-quick"), timeoutInterval: 900))
        let caller = Task { await task.run() }
        // Suspended only once the first request has reached the server (its answer waits ten minutes). Suspended
        // before, the request started again on resume was the server's first and waited too. Under ThreadSanitizer
        // the whole suite keeps the cooperative pool's two threads busy, and the caller's task waited over 50 s for
        // one before it even started (seen 2026-11-29): both waits are safety nets of minutes, and each says which
        // step never came.
        try await Self.wait(within: .seconds(300), "the caller's task to start the request") { task.state == .running }
        try await server.waitForRequest(within: .seconds(300))
        task.suspend()
        #expect(task.state == .suspended)
        try await Task.sleep(for: .milliseconds(50))
        task.resume()
        let result = await caller.value
        #expect(result.response?.statusCode == 200, "\(String(describing: result.error))")
        #expect(result.data?.count == 1000)
        #expect(server.journal.entries.filter { $0.path == "/late-then-quick" }.count == 2, "the request was started again")
    }

    /// Polls `condition` until it holds; throws after `limit` naming `what` never came (a safety net, never a verdict).
    private static func wait(within limit: Duration, _ what: String, until condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { throw WaitedTooLong(what: what, limit: limit) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private struct WaitedTooLong: Error, CustomStringConvertible {
        let what: String
        let limit: Duration
        var description: String { "waited \(limit) for \(what)" }
    }

    @Test func aDownloadRunInTheCallerCanBeCancelledForResumeData() async throws {
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = directory.file("download")
        let task = manager.downloadTask(with: HTTPRequest(url: server.url("/file")), destination: { _, _ in destination })
        let caller = Task { await task.run() }
        while task.downloadProgress.completedUnitCount < 100 { try await Task.sleep(for: .milliseconds(5)) }
        let resumeData = try #require(await task.cancelProducingResumeData())
        #expect((await caller.value.error as? URLError)?.code == .cancelled)
        let resumed = try manager.downloadTask(withResumeData: resumeData, destination: { _, _ in destination })
        let result = await resumed.run()
        #expect(result.error == nil)
        #expect(try Data(contentsOf: destination).count == 1000)
    }
}
