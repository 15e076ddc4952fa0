import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    /// The stub server's response kinds, seen through the live transport.
    @Suite struct StubServerResponseTests {
        let transport = CurlTransport()

        @Test func fileBodiesAreServedWithTheirLength() async throws {
            try await withStubServer { server in
                let directory = try TemporaryDirectory()
                defer { directory.remove() }
                let file = directory.file("body.bin")
                let content = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) })
                try content.write(to: file)
                server.route(.get, "/file", response: StubResponse(headers: ["Content-Type": "application/octet-stream"], body: .file(file)))
                let response = try await transport.send(HTTPRequest(url: server.url("/file")))
                #expect(response.data == content)
                #expect(response.headers["Content-Length"] == "200000")
                #expect(response.head.mimeType == "application/octet-stream")
            }
        }

        @Test func aMissingFileIsA500ThatSaysWhy() async throws {
            try await withStubServer { server in
                server.route(.get, "/file", response: StubResponse(body: .file(URL(fileURLWithPath: "/no/such/file"))))
                let response = try await transport.send(HTTPRequest(url: server.url("/file")))
                #expect(response.statusCode == 500)
                #expect(String(decoding: response.data ?? Data(), as: UTF8.self).contains("/no/such/file"))
            }
        }

        @Test func largeInMemoryAndGeneratedBodiesArriveIntact() async throws {
            try await withStubServer { server in
                let large = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
                server.route(.get, "/large", response: StubResponse(body: .data(large)))
                server.route(.get, "/generated", response: StubResponse(body: .generated(length: 777_777)))
                #expect(try await transport.send(HTTPRequest(url: server.url("/large"))).data == large)
                let generated = try await transport.send(HTTPRequest(url: server.url("/generated")))
                #expect(generated.data == StubBody.generatedBytes(from: 0, count: 777_777))
            }
        }

        @Test func chunkedBodiesArriveInPacedChunks() async throws {
            try await withStubServer { server in
                server.route(.get, "/drip", response: StubResponse(body: .chunked(ChunkedBody(
                    data: Data("abcdefghij".utf8), chunkSize: 2, interval: .milliseconds(30)))))
                var request = HTTPRequest(url: server.url("/drip"))
                request.responseBody = .stream
                let log = TransportEventLog()
                let started = ContinuousClock.now
                _ = try await transport.send(request, onEvent: log.handler)
                let chunks = log.bodyChunks
                #expect(chunks.reduce(Data(), +) == Data("abcdefghij".utf8))
                #expect(chunks.count >= 3)
                // Four pauses of 30 ms between five chunks: pacing happened (a lower bound only).
                #expect(ContinuousClock.now - started >= .milliseconds(120))
            }
        }

        @Test func unmatchedRequestsGetA404ThatListsTheRoutes() async throws {
            try await withStubServer { server in
                server.route(.get, "/known", response: .text("k"))
                let response = try await transport.send(HTTPRequest(method: .post, url: server.url("/unknown")))
                #expect(response.statusCode == 404)
                let text = String(decoding: response.data ?? Data(), as: UTF8.self)
                #expect(text.contains("POST /unknown"))
                #expect(text.contains("GET /known"))
            }
        }

        @Test func handlersSeeTheWholeRequest() async throws {
            try await withStubServer { server in
                server.route(.post, "/inspect") { request in
                    .text("\(request.method) \(request.path) \(request.query ?? "-") \(request.headers["X-A"] ?? "-") \(String(decoding: request.body, as: UTF8.self))")
                }
                let response = try await transport.send(HTTPRequest(
                    method: .post, url: server.url("/inspect?q=1"), headers: ["X-A": "b"], body: .data(Data("payload".utf8))))
                #expect(String(decoding: response.data ?? Data(), as: UTF8.self) == "POST /inspect q=1 b payload")
            }
        }

        @Test func theJournalIsCappedByConfiguration() async throws {
            try await withStubServer(.init(journalCapacity: 2)) { server in
                server.route(.get, "/n", response: .text("n"))
                for index in 0..<4 {
                    _ = try await transport.send(HTTPRequest(url: server.url("/n?\(index)")))
                }
                #expect(server.journal.entries.map(\.query) == ["2", "3"])
                #expect(server.journal.droppedCount == 2)
            }
        }
    }
}

extension Loopback.StubServerResponseTests {
    @Test func delayedResponsesWaitWithoutBlockingOtherRequests() async throws {
        try await withStubServer(.init(threadCount: 1)) { server in
            server.route(.get, "/slow", response: StubResponse(body: .data(Data("late".utf8)), delay: .milliseconds(500)))
            server.route(.get, "/fast", response: .text("fast"))
            let transport = CurlTransport()
            let order = Collected<String>()
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await transport.send(HTTPRequest(url: server.url("/slow")))
                    order.append("slow")
                }
                group.addTask {
                    // Sent once the slow request is surely waiting on the server's only thread.
                    try await server.waitForRequest()
                    _ = try await transport.send(HTTPRequest(url: server.url("/fast")))
                    order.append("fast")
                }
                try await group.waitForAll()
            }
            #expect(order.values == ["fast", "slow"])
            #expect(ContinuousClock.now - started >= .milliseconds(500))
        }
    }

    @Test func aDelayLongerThanTheClientTimeoutTimesOut() async throws {
        try await withStubServer { server in
            server.route(.get, "/never", response: StubResponse(delay: .seconds(30)))
            let code = await urlErrorCode {
                _ = try await CurlTransport().send(HTTPRequest(url: server.url("/never"), timeoutInterval: 0.2))
            }
            #expect(code == .timedOut)
        }
    }
}
