import Foundation
import Synchronization
import Testing
import TapedeckCore
@testable import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    /// A transport's event-loop thread ends, teardown included, before the release of its last copy (or its
    /// `shutdown()`) returns, so a process exiting right after has no thread still freeing TLS state.
    @Suite struct TransportLifecycleTests {
        /// The guarantee is checked where it lives: a thread-local value set on the loop thread has had its
        /// destructor run (thread teardown is over) when the release returns. The kernel drops the thread from
        /// /proc/self/task a moment after `pthread_join` returns, so that listing is only waited for.
        @Test func theLoopThreadIsGoneWhenTheLastCopyIsReleased() async throws {
            try await inIsolatedProcess("theLoopThreadIsGoneWhenTheLastCopyIsReleased") {
                try await withStubServer { server in
                    server.route(.get, "/x", response: .text("x"))
                    for round in 1...20 {
                        var transport: CurlTransport? = CurlTransport()
                        do {
                            let running = transport!
                            try await withTaskExecutorPreference(running.executor) {
                                _ = try await running.send(HTTPRequest(url: server.url("/x")))
                                #expect(running.isOnEventLoop)
                                LoopThreadTeardown.markCurrentThread()
                            }
                        }
                        #expect(threadNames().filter { $0 == "tapedeck.curl" }.count == 1)
                        transport = nil
                        // No waiting: the release itself waited for the thread's teardown.
                        #expect(LoopThreadTeardown.count == round)
                        #expect(await kernelListsNoCurlThread(), "\(threadNames())")
                    }
                }
            }
        }

        @Test func shutdownReturnsAfterTheLoopThreadHasEnded() async throws {
            try await inIsolatedProcess("shutdownReturnsAfterTheLoopThreadHasEnded") {
                try await withStubServer { server in
                    server.route(.get, "/x", response: .text("x"))
                    let transport = CurlTransport()
                    try await withTaskExecutorPreference(transport.executor) {
                        _ = try await transport.send(HTTPRequest(url: server.url("/x")))
                        #expect(transport.isOnEventLoop)
                        LoopThreadTeardown.markCurrentThread()
                    }
                    let ended = LoopThreadTeardown.count
                    transport.shutdown()
                    #expect(LoopThreadTeardown.count == ended + 1)
                    #expect(await kernelListsNoCurlThread(), "\(threadNames())")
                    transport.shutdown()  // again: returns at once
                }
            }
        }
    }
}

/// Counts the ends of threads marked with ``markCurrentThread()``: a thread-local value whose destructor runs in
/// the thread's teardown, before `pthread_join` returns.
private enum LoopThreadTeardown {
    private static let ended = Atomic<Int>(0)
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key) { _ in LoopThreadTeardown.ended.add(1, ordering: .sequentiallyConsistent) } == 0)
        return key
    }()

    static var count: Int { ended.load(ordering: .sequentiallyConsistent) }

    static func markCurrentThread() {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    }
}

/// Whether /proc/self/task stops listing a `tapedeck.curl` thread within ten seconds (a bound on the kernel's
/// bookkeeping after a join, never reached when the thread has ended).
private func kernelListsNoCurlThread() async -> Bool {
    for _ in 0..<1_000 {
        if !threadNames().contains("tapedeck.curl") { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return false
}
