import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// Each fault against `CurlTransport`, with the `URLError` the README's table promises.
    @Suite struct FaultTests {
        let transport = CurlTransport()

        private func code(for fault: TransportFault, timeout: TimeInterval = 10) async throws -> URLError.Code? {
            try await withStubServer { server in
                server.add(Stub(RequestPattern(.get, "/fault"), fault: fault))
                server.route(.get, "/ok", response: .text("fine"))
                let code = await urlErrorCode {
                    _ = try await transport.send(HTTPRequest(url: server.url("/fault"), timeoutInterval: timeout))
                }
                // The server keeps answering after the fault.
                let next = try await transport.send(HTTPRequest(url: server.url("/ok")))
                #expect(next.text == "fine")
                #expect(server.journal.entries.first?.path == "/fault", "the faulted request is journaled")
                return code
            }
        }

        @Test func closingWithoutAResponseIsBadServerResponse() async throws {
            #expect(try await code(for: .closeWithoutResponse) == .badServerResponse)
        }

        @Test func aResetIsNetworkConnectionLost() async throws {
            #expect(try await code(for: .reset) == .networkConnectionLost)
        }

        @Test func aMalformedStatusLineIsBadServerResponse() async throws {
            #expect(try await code(for: .malformedStatusLine) == .badServerResponse)
        }

        @Test func malformedHeadersAreBadServerResponse() async throws {
            #expect(try await code(for: .malformedHeaders) == .badServerResponse)
        }

        @Test func givenRawBytesAreSentAsTheResponse() async throws {
            try await withStubServer { server in
                server.add(Stub(RequestPattern(.get, "/raw"), fault: .malformedResponse(Data("HTTP/1.1 203 Raw\r\nContent-Length: 3\r\n\r\nabc".utf8))))
                let response = try await transport.send(HTTPRequest(url: server.url("/raw")))
                #expect(response.statusCode == 203)
                #expect(response.text == "abc")
            }
        }

        @Test func aPartialBodyIsNetworkConnectionLost() async throws {
            #expect(try await code(for: .partialBody(sent: 100, declared: 1000)) == .networkConnectionLost)
        }

        /// The client's own timeout ends the wait: `-1001`, and not before the 0.3 s it was given (libcurl counts
        /// whole milliseconds, hence the margin). How much later depends on the machine; a hang is ended by the
        /// time limit.
        @Test(.timeLimit(.minutes(10))) func neverAnsweringTimesTheClientOut() async throws {
            let started = ContinuousClock.now
            #expect(try await code(for: .noResponse, timeout: 0.3) == .timedOut)
            #expect(ContinuousClock.now - started >= .milliseconds(290))
        }

        /// Prompt means before the client's 30 s timeout: the client learns of the stop as a closed connection
        /// (`-1011`), not as its own timeout (`-1001`). A stop that hangs is ended by the time limit.
        @Test(.timeLimit(.minutes(10))) func aServerWithAHangingConnectionStillStopsPromptly() async throws {
            let server = try StubServer()
            server.add(Stub(RequestPattern(.get, "/hang"), fault: .noResponse))
            let task = Task { try await transport.send(HTTPRequest(url: server.url("/hang"), timeoutInterval: 30)) }
            // Stopped once the request hangs there, not after a fixed pause: under load the client may not have
            // connected yet, and a server stopped before that refuses the connection instead (-1004).
            try await server.waitForRequest()
            server.stop()
            let code = await urlErrorCode { _ = try await task.value }
            #expect(code == .badServerResponse, "stopping closes the hanging connection with no response")
        }

        @Test func aDelayedFaultWaitsFirst() async throws {
            try await withStubServer { server in
                server.add(Stub(RequestPattern(.get, "/late-reset"), fault: .reset, delay: .fixed(.milliseconds(150))))
                let started = ContinuousClock.now
                let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url("/late-reset"))) }
                #expect(code == .networkConnectionLost)
                #expect(ContinuousClock.now - started >= .milliseconds(150))
            }
        }
    }
}
