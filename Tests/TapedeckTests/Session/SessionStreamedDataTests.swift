import Foundation
import Testing
import Tapedeck
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// `SessionManager.dataTask(with:didReceiveData:completion:)`: the final response's body is handed over piece by piece,
/// in order and before the completion, and not collected; a redirect's body is not handed over.
@Suite struct SessionStreamedDataTests {
    @Test func theFinalBodyIsHandedOverPieceByPieceBeforeTheCompletion() async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.route(.get, "/moved", response: StubResponse(status: 302, headers: ["Location": "/events"], body: .data(Data("the redirect's own body".utf8))))
        server.route(.get, "/events", response: .text("data: 1\n\ndata: 2\n\ndata: 3\n\n").dribbled(bytesPerChunk: 9, interval: .milliseconds(30)))
        let manager = SessionManager(transport: CurlTransport(), responseSerializer: HTTPResponseSerializer())
        let pieces = Locked([Data]())
        let result = await manager.dataTask(with: HTTPRequest(url: server.url("/moved")), didReceiveData: { chunk in
            pieces.withLock { $0.append(chunk) }
        }).run()
        #expect(result.error == nil)
        #expect(result.response?.statusCode == 200 && result.response?.url.path == "/events")
        #expect(result.data == nil, "the body is handed over, not collected")
        let received = pieces.withLock { $0 }
        #expect(Data(received.joined()) == Data("data: 1\n\ndata: 2\n\ndata: 3\n\n".utf8), "every piece, in order, before the completion, and none of the redirect's")
    }
}
