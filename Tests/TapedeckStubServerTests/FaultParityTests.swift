import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// One fault, three ways to meet it: a stub server carrying it out at the socket (`Stub(pattern, fault:)`), a stub
    /// server serving a cassette with a `ReplayFault` of it, and in-process replay of that cassette with the same
    /// `ReplayFault`. The client sees the same `URLError` code, or status, headers and body, all three ways: the
    /// socket ways through `CurlTransport`, the in-process way through `CassetteTransport`.
    @Suite struct FaultParityTests {
        let client = CurlTransport()

        static let faults: [TransportFault] = [
            .closeWithoutResponse, .reset, .malformedStatusLine, .malformedHeaders, .noResponse,
            .partialBody(sent: 100, declared: 1000), .stall(sent: 10), .status(503), .status(201),
            .malformedResponse(Data("HTTP/1.1 203 Raw\r\nContent-Length: 3\r\nX-Raw: yes\r\n\r\nabc".utf8)),
            .malformedResponse(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=1\r\nde\r\n0\r\n\r\n".utf8)),
            .malformedResponse(Data("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8)),
            .malformedResponse(Data("HTTP/1.0 200 OK\r\nX-Close: delimited\r\n\r\nuntil the close".utf8)),
            // WireMock's RANDOM_DATA_THEN_CLOSE and MALFORMED_RESPONSE_CHUNK.
            .malformedResponse(Data("lskdu018973t09sylgasjkfg1][]'./.sdlv\r\n\r\n".utf8)),
            .malformedResponse(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlskdu018973t09sylgasjkfg1][]'./.sdlv".utf8)),
        ]

        @Test(arguments: faults) func theClientSeesTheSameOverSocketsAndInProcess(fault: TransportFault) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("fault.json")
            try await withStubServer { server in
                server.add(Stub(RequestPattern(.get, "/fault"), fault: fault))
                let url = server.url("/fault")
                let atTheSocket = await ClientOutcome.of(HTTPRequest(url: url, timeoutInterval: 0.5), over: client)

                let recorded = Interaction(request: .init(method: "GET", url: url.absoluteString), outcome: .response(
                    .init(statusCode: 200, headers: ["Content-Type": "text/plain"], body: CassetteBody(Data("recorded".utf8)))))
                try CassetteFile.save(Cassette(interactions: [recorded]), to: file)
                var configuration = CassetteConfiguration()
                configuration.faults = [ReplayFault(interaction: 0, action: .fault(fault))]
                let inProcess = try openCassette(file, mode: .replay, configuration: configuration)
                let replayed = await ClientOutcome.of(HTTPRequest(url: url, timeoutInterval: 0.5), over: inProcess)
                try inProcess.finish()
                let serving = try StubServer(cassette: file, cassetteConfiguration: configuration)
                defer { serving.stop() }
                let served = await ClientOutcome.of(HTTPRequest(url: serving.url("/fault"), timeoutInterval: 0.5), over: client)

                #expect(replayed == atTheSocket, "\(fault): in process \(replayed), at the socket \(atTheSocket)")
                #expect(served == atTheSocket, "\(fault): served cassette \(served), at the socket \(atTheSocket)")
            }
        }
    }
}
