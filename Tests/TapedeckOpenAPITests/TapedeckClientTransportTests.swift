import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import TapedeckCore
import TapedeckOpenAPI

/// `TapedeckClientTransport` over transports made for the test, without sockets.
@Suite struct TapedeckClientTransportTests {
    let base = URL(string: "http://127.0.0.1:8080")!

    @Test func anUploadIsPulledChunkByChunkAsTheTransportSendsIt() async throws {
        let upload = IncrementalUpload(count: 64, size: 16 * 1024)
        let transport = PullingTransport(upload: upload)
        let request = HTTPTypes.HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/upload")

        let (response, body) = try await TapedeckClientTransport(transport).send(
            request, body: upload.body(), baseURL: base, operationID: "upload"
        )

        #expect(response.status == .ok)
        let answer = try await String(collecting: try #require(body), upTo: 64)
        #expect(answer == "\(64 * 16 * 1024)")
        let produced = transport.producedWhenReceived.value
        #expect(produced.count == 64)
        // When the transport had received chunk n, the body had made at most chunk n + 1: nothing was read ahead.
        for (index, count) in produced.enumerated() {
            #expect(count <= index + 2, "chunk \(index + 1) arrived when \(count) had been made")
        }
    }

    @Test func aTransportThatKeepsTheBodyInMemoryStillGetsItThrough() async throws {
        let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Length": "5"], url: base)
        let transport = TapedeckClientTransport(FixedTransport(response: .success((head, Data("hello".utf8)))))
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/get")

        let (response, body) = try await transport.send(request, body: nil, baseURL: base, operationID: "get")

        #expect(response.status.code == 200)
        let bytes = try await HTTPBody.ByteChunk(collecting: try #require(body), upTo: 100)
        #expect(Array(bytes) == Array("hello".utf8))
    }

    @Test func anAnswerToHeadHasNoBody() async throws {
        let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Length": "5"], url: base)
        let transport = TapedeckClientTransport(FixedTransport(response: .success((head, Data()))))
        let request = HTTPTypes.HTTPRequest(method: .head, scheme: nil, authority: nil, path: "/get")

        let (response, body) = try await transport.send(request, body: nil, baseURL: base, operationID: "head")

        #expect(response.status.code == 200)
        #expect(body == nil)
    }

    @Test func theTransportsErrorIsThrownUnchanged() async throws {
        let refused = URLError(.cannotConnectToHost, failingURL: base, reason: "refused")
        let transport = TapedeckClientTransport(FixedTransport(response: .failure(refused)))
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/get")

        let error = await #expect(throws: URLError.self) {
            _ = try await transport.send(request, body: nil, baseURL: self.base, operationID: "get")
        }
        #expect(error?.code == .cannotConnectToHost)
        #expect(error?.localizedDescription == "refused")
    }

    @Test func aPathThatDoesNotJoinTheBaseURLIsAClearError() async throws {
        let transport = TapedeckClientTransport(FixedTransport(response: .failure(URLError(.unknown))))
        let request = HTTPTypes.HTTPRequest(method: .get, scheme: nil, authority: nil, path: "get")

        await #expect(throws: OpenAPITransportError.invalidURL(baseURL: base, path: "get", reason: "the path must start with \"/\"")) {
            _ = try await transport.send(request, body: nil, baseURL: self.base, operationID: "get")
        }
    }
}
