import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckURLSession

/// Foundation's URLSession as a transport: each hop as it happened, against the httpbin stub and beside libcurl.
@Suite struct URLSessionTransportTests {
    let server: StubServer
    let transport = URLSessionTransport()

    init() throws { server = try StubServer.httpbin() }

    @Test func aGetComesBackWithItsHeadBodyAndEventsInOrder() async throws {
        let events = Mutex<[String]>([])
        var request = HTTPRequest(url: server.url("/get?a=1"))
        request.headers.add(name: "X-Probe", value: "p1")
        let response = try await transport.send(request) { event in
            let name = switch event {
            case .responseHead: "head"
            case .bodyChunk: "chunk"
            case .uploadProgress: "upload"
            case .downloadProgress: "download"
            case .completed: "completed"
            }
            events.withLock { $0.append(name) }
        }
        #expect(response.statusCode == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let echoed = try echoedHeaders(try #require(response.data))
        #expect(echoed["x-probe"] == "p1")
        let order = events.withLock { $0 }
        #expect(order.first == "head")
        #expect(order.last == "completed")
        #expect(order.contains("download"))
        #expect(!order.contains("chunk"))
        #expect(response.metrics.bytesReceived == Int64(response.data?.count ?? -1))
    }

    @Test func aBodyIsSentWithUploadProgress() async throws {
        let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) })
        let uploaded = Mutex<Int64>(0)
        let request = HTTPRequest(method: .post, url: server.url("/anything/upload"), body: .data(payload))
        let response = try await transport.send(request) { event in
            if case .uploadProgress(let progress) = event { uploaded.withLock { $0 = progress.completed } }
        }
        #expect(response.statusCode == 200)
        #expect(uploaded.withLock { $0 } == Int64(payload.count))
        #expect(server.journal.entries.last?.body == payload)
    }

    @Test func aRedirectIsDeliveredNotFollowed() async throws {
        let response = try await transport.send(HTTPRequest(url: server.url("/redirect/2")))
        #expect(HTTPResponseHead.followedRedirectStatuses.contains(response.statusCode))
        #expect(response.headers["Location"] != nil)
        #expect(server.journal.entries.count == 1)
    }

    @Test func aChallengeIsDeliveredUnanswered() async throws {
        let request = HTTPRequest(url: server.url("/basic-auth/ada/lovelace"), timeoutInterval: 20)
        let response = try await transport.send(request)
        #expect(response.statusCode == 401)
        #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
    }

    @Test func noCookieIsKept() async throws {
        _ = try await transport.send(HTTPRequest(url: server.url("/cookies/set?flavour=oat")))
        let second = try await transport.send(HTTPRequest(url: server.url("/headers")))
        #expect(try echoedHeaders(try #require(second.data))["cookie"] == nil)
    }

    @Test func bodiesGoToAFileOrAStream() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.url.appendingPathComponent("bytes.bin")
            let toFile = try await transport.send(HTTPRequest(url: server.url("/bytes/70000?seed=3"), responseBody: .file(file)))
            let inMemory = try await transport.send(HTTPRequest(url: server.url("/bytes/70000?seed=3")))
            #expect(toFile.body == .file(file, byteCount: 70_000))
            #expect(try Data(contentsOf: file) == inMemory.data)
            let chunks = Mutex<Data>(Data())
            let streamed = try await transport.send(HTTPRequest(url: server.url("/bytes/70000?seed=3"), responseBody: .stream)) { event in
                if case .bodyChunk(let chunk) = event { chunks.withLock { $0.append(chunk) } }
            }
            #expect(streamed.body == .streamed(byteCount: 70_000))
            #expect(chunks.withLock { $0 } == inMemory.data)
        }
    }

    @Test func aResumedDownloadKeepsTheBytesARangeAnswerSkips() async throws {
        try await withTemporaryDirectory { directory in
            server.route(.get, "/range") { .generatedHonoringRange(of: $0, totalLength: 50_000) }
            let whole = try #require(try await transport.send(HTTPRequest(url: server.url("/range"))).data)
            let file = directory.url.appendingPathComponent("partial.bin")
            try whole.prefix(20_000).write(to: file)
            var request = HTTPRequest(url: server.url("/range"), responseBody: .resumingFile(file, existingLength: 20_000))
            request.headers.add(name: "Range", value: "bytes=20000-")
            let response = try await transport.send(request)
            #expect(response.statusCode == 206)
            #expect(try Data(contentsOf: file) == whole)
        }
    }

    @Test func tlsSettingsItCannotApplyAreRefusedByName() async throws {
        var request = HTTPRequest(url: URL(string: "https://127.0.0.1:1/")!)
        request.tls.pinnedPublicKeyHashes = ["AAAA"]
        let error = await #expect(throws: URLError.self) { try await transport.send(request) }
        #expect(error?.code == .secureConnectionFailed)
        #expect(error?.localizedDescription.contains("CurlTransport") == true)
    }

    @Test func cancellingTheCallerCancelsTheTransfer() async throws {
        let task = Task { try await transport.send(HTTPRequest(url: server.url("/delay/30"), timeoutInterval: 60)) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let error = await #expect(throws: URLError.self) { try await task.value }
        #expect(error?.code == .cancelled)
    }

    @Test func aTotalTimeoutEndsTheTransferAsATimeOut() async throws {
        var request = HTTPRequest(url: server.url("/delay/30"), timeoutInterval: 60)
        request.totalTimeout = 0.3
        let error = await #expect(throws: URLError.self) { try await transport.send(request) }
        #expect(error?.code == .timedOut)
    }

    /// The same requests recorded through URLSession and through libcurl make the same interactions, but for what
    /// URLSession does not expose (the reason phrase, repeated fields joined) and for what each client sends of its
    /// own (User-Agent, Accept-Encoding), which is why no echo endpoint is among them.
    @Test func recordsTheSameCassetteAsLibcurl() async throws {
        try await withTemporaryDirectory { directory in
            let paths = ["/xml", "/status/404", "/redirect/1", "/json", "/bytes/3000?seed=9"]
            var interactions: [[Interaction]] = []
            let upstreams: [any HTTPTransport] = [URLSessionTransport(), CurlTransport()]
            for (index, upstream) in upstreams.enumerated() {
                let url = directory.url.appendingPathComponent("cassette-\(index).json")
                let recorder = try CassetteTransport(cassette: url, mode: .all, upstream: upstream)
                for path in paths { _ = try await recorder.send(HTTPRequest(url: server.url(path))) }
                try recorder.finish()
                interactions.append(try CassetteFile.load(url).interactions)
            }
            try #require(interactions[0].count == paths.count && interactions[1].count == paths.count)
            for (first, second) in zip(interactions[0], interactions[1]) {
                #expect(first.request.url == second.request.url)
                guard case .response(let viaURLSession) = first.outcome, case .response(let viaCurl) = second.outcome else {
                    Issue.record("a transfer failed: \(first.outcome) / \(second.outcome)")
                    continue
                }
                #expect(viaURLSession.statusCode == viaCurl.statusCode)
                #expect(viaURLSession.body == viaCurl.body)
                #expect(viaURLSession.headers["Content-Type"] == viaCurl.headers["Content-Type"])
                #expect(viaURLSession.headers["Location"] == viaCurl.headers["Location"])
            }
        }
    }
}
