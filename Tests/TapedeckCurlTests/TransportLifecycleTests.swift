import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    /// A transport's event-loop thread ends, teardown included, before the release of its last copy (or its
    /// `shutdown()`) returns, so a process exiting right after has no thread still freeing TLS state.
    @Suite struct TransportLifecycleTests {
        @Test func theLoopThreadIsGoneWhenTheLastCopyIsReleased() async throws {
            try await inIsolatedProcess("theLoopThreadIsGoneWhenTheLastCopyIsReleased") {
                try await withStubServer { server in
                    server.route(.get, "/x", response: .text("x"))
                    for _ in 0..<20 {
                        var transport: CurlTransport? = CurlTransport()
                        _ = try await transport?.send(HTTPRequest(url: server.url("/x")))
                        #expect(threadNames().filter { $0 == "tapedeck.curl" }.count == 1)
                        transport = nil
                        // No waiting: the release itself joined the thread.
                        #expect(threadNames().filter { $0 == "tapedeck.curl" }.isEmpty, "\(threadNames())")
                    }
                }
            }
        }

        @Test func shutdownReturnsAfterTheLoopThreadHasEnded() async throws {
            try await inIsolatedProcess("shutdownReturnsAfterTheLoopThreadHasEnded") {
                try await withStubServer { server in
                    server.route(.get, "/x", response: .text("x"))
                    let transport = CurlTransport()
                    _ = try await transport.send(HTTPRequest(url: server.url("/x")))
                    transport.shutdown()
                    #expect(!threadNames().contains("tapedeck.curl"), "\(threadNames())")
                    transport.shutdown()  // again: returns at once
                }
            }
        }
    }
}
