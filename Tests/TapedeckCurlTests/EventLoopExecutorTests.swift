import Foundation
import Synchronization
import Testing
import TapedeckCore
@testable import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    /// `CurlTransport.executor`: tasks that prefer it run on the event-loop thread and still drive transfers.
    @Suite struct EventLoopExecutorTests {
        @Test func sequentialRequestsRunOnTheLoopThreadAndReuseTheConnection() async throws {
            try await withStubServer { server in
                server.route(.get, "/n", handler: { request in .text(request.query ?? "") })
                let transport = CurlTransport()
                #expect(!transport.isOnEventLoop)
                let reuses = try await withTaskExecutorPreference(transport.executor) {
                    try await (0..<200).asyncMap { index in
                        let response = try await transport.send(HTTPRequest(url: server.url("/n?\(index)")))
                        #expect(transport.isOnEventLoop)
                        #expect(response.data == Data("\(index)".utf8))
                        return response.metrics.connectionReused
                    }
                }
                #expect(reuses.filter { $0 }.count == 199)
                #expect(server.journal.entries.count == 200)
            }
        }

        @Test func concurrentChildTasksOnTheLoopAllComplete() async throws {
            try await withStubServer { server in
                let transport = CurlTransport()
                let bodies = try await withTaskExecutorPreference(transport.executor) {
                    try await fetchItemsConcurrently(100, from: server, over: transport)
                }
                #expect(bodies.count == 100)
                #expect(bodies.allSatisfy { $0.value == String($0.key) })
            }
        }

        @Test func aTaskThatKeepsYieldingOnTheLoopDoesNotStarveTransfers() async throws {
            try await withStubServer { server in
                server.route(.get, "/slow", response: StubResponse(body: .chunked(ChunkedBody(
                    data: Data(count: 8), chunkSize: 2, interval: .milliseconds(5)))))
                let transport = CurlTransport()
                let done = Atomic(false)
                let spinner = Task(executorPreference: transport.executor) {
                    var turns = 0
                    // Bounded: a starved transfer fails the test instead of hanging it.
                    while !done.load(ordering: .acquiring), turns < 5_000_000 {
                        await Task.yield()
                        turns += 1
                    }
                    return turns
                }
                let response = try await withTaskExecutorPreference(transport.executor) {
                    try await transport.send(HTTPRequest(url: server.url("/slow")))
                }
                done.store(true, ordering: .releasing)
                #expect(response.data == Data(count: 8))
                #expect(await spinner.value < 5_000_000)
            }
        }

        @Test func tasksPreferringAStoppedLoopStillRunAndTheirRequestsAreCancelled() async throws {
            let transport = CurlTransport()
            transport.shutdown()
            let answer = await withTaskExecutorPreference(transport.executor) { () async -> Int in
                await Task.yield()
                return 42
            }
            #expect(answer == 42)
            let code = await urlErrorCode {
                try await withTaskExecutorPreference(transport.executor) {
                    _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/")!))
                }
            }
            #expect(code == .cancelled)
        }

        @Test func theLoopThreadCarriesItsNameForTopAndPerf() async throws {
            try await withStubServer { server in
                server.route(.get, "/x", response: .text("x"))
                let transport = CurlTransport()
                let name = try await withTaskExecutorPreference(transport.executor) {
                    _ = try await transport.send(HTTPRequest(url: server.url("/x")))
                    return try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
                }
                #expect(name.trimmingCharacters(in: .newlines) == "tapedeck.curl")
            }
        }

        @Test func shuttingDownFromTheLoopThreadDoesNotWaitForItself() async throws {
            try await withStubServer { server in
                server.route(.get, "/x", response: .text("x"))
                let transport = CurlTransport()
                try await withTaskExecutorPreference(transport.executor) {
                    _ = try await transport.send(HTTPRequest(url: server.url("/x")))
                    #expect(transport.isOnEventLoop)
                    transport.shutdown()
                    let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url("/x"))) }
                    #expect(code == .cancelled)
                }
            }
        }
    }
}

private extension Sequence {
    /// `map` with an async transform, one element after the other.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
