import Foundation
import Synchronization
import Testing
import TapedeckCore
@testable import TapedeckCurl
import TapedeckStubServer

extension Loopback {
    /// `CurlTransport.send(_:whileInFlight:onCompletion:)`: the caller's work overlaps the transfer, and `send` does
    /// not return before the completion work has.
    @Suite struct OverlappingSendTests {
        @Test func inFlightWorkRunsInTheCallerAndCompletionWorkOnTheLoopBeforeSendReturns() async throws {
            try await withStubServer { server in
                server.route(.post, "/echo", handler: { request in .text(String(decoding: request.body, as: UTF8.self)) })
                let transport = CurlTransport()
                let inFlight = Mutex<[Bool]>([])
                let completed = Mutex<[String]>([])
                for index in 0..<3 {
                    let request = HTTPRequest(method: .post, url: server.url("/echo"), body: .data(Data("body \(index)".utf8)))
                    let response = try await transport.send(request, whileInFlight: {
                        inFlight.withLock { $0.append(transport.isOnEventLoop) }
                    }, onCompletion: { response in
                        #expect(transport.isOnEventLoop)
                        // Slow work: a `send` that did not wait for it would return before the append.
                        Thread.sleep(forTimeInterval: 0.1)
                        completed.withLock { $0.append(String(decoding: response.data ?? Data(), as: UTF8.self)) }
                    })
                    #expect(response.data == Data("body \(index)".utf8))
                    #expect(completed.withLock { $0.last } == "body \(index)")
                }
                #expect(inFlight.withLock { $0 } == [false, false, false])
                #expect(completed.withLock { $0.count } == 3)
            }
        }

        @Test func completionWorkDoesNotRunForAFailedTransfer() async throws {
            let server = try StubServer()
            let closed = server.url("/nothing-listens-here")
            server.stop()
            let inFlight = Atomic(0)
            let completions = Atomic(0)
            let code = await urlErrorCode {
                _ = try await CurlTransport().send(HTTPRequest(url: closed), whileInFlight: {
                    inFlight.add(1, ordering: .relaxed)
                }, onCompletion: { _ in
                    completions.add(1, ordering: .relaxed)
                })
            }
            #expect(code == .cannotConnectToHost)
            #expect(inFlight.load(ordering: .relaxed) == 1)
            #expect(completions.load(ordering: .relaxed) == 0)
        }
    }
}
