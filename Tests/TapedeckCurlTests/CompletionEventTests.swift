import Foundation
import Synchronization
import Testing
import TapedeckCore
@testable import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    /// `completed` reaches the event handler on the loop thread, after the caller has been scheduled to resume, and
    /// `send` does not return before the handler has.
    @Suite struct CompletionEventTests {
        @Test func theHandlerSeesCompletedOnTheLoopBeforeSendReturns() async throws {
            try await withStubServer { server in
                server.route(.post, "/echo", handler: { request in .text(String(decoding: request.body, as: UTF8.self)) })
                let transport = CurlTransport()
                let completed = Locked<[String]>([])
                for index in 0..<3 {
                    let request = HTTPRequest(method: .post, url: server.url("/echo"), body: .data(Data("body \(index)".utf8)))
                    let response = try await transport.send(request, onEvent: { event in
                        guard case .completed(let response) = event else { return }
                        #expect(transport.isOnEventLoop)
                        // Slow work: a `send` that did not wait for it would return before the append.
                        Thread.sleep(forTimeInterval: 0.1)
                        completed.withLock { $0.append(String(decoding: response.data ?? Data(), as: UTF8.self)) }
                    })
                    #expect(response.data == Data("body \(index)".utf8))
                    #expect(completed.withLock { $0.last } == "body \(index)")
                }
                #expect(completed.withLock { $0.count } == 3)
            }
        }

        @Test func aFailedTransferDeliversNoCompleted() async throws {
            let refusing = try RefusingLoopbackPort()
            defer { withExtendedLifetime(refusing) {} }
            let closed = refusing.url("/nothing-listens-here")
            let completions = Atomic(0)
            let code = await urlErrorCode {
                _ = try await CurlTransport().send(HTTPRequest(url: closed), onEvent: { event in
                    if case .completed = event { completions.add(1, ordering: .relaxed) }
                })
            }
            #expect(code == .cannotConnectToHost)
            #expect(completions.load(ordering: .relaxed) == 0)
        }
    }
}
