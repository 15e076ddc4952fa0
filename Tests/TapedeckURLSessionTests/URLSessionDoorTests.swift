import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckURLSession
import TapedeckCore

/// What URLSession does above the wire, through the adapter: the delegate decides redirects and challenges, cookies
/// live in the configuration's storage, delegate tasks get their body as it arrives and hear of upload progress.
@Suite(.timeLimit(.minutes(10))) struct URLSessionDoorTests {
    @Test func theDelegateCanStopARedirectAndGetTheThreeHundredItself() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let delegate = RedirectDecider { _, _ in nil }
        let session = URLSession(configuration: .tapedeck(transport: server.transport()), delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(from: server.url("/redirect/2"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 302)
        #expect(http.url?.path == "/redirect/2")
        let seen = delegate.seen.withLock { $0 }
        #expect(seen.count == 1 && seen[0].hasPrefix("302 -> /"), "\(seen)")
        #expect(server.journal.entries.map(\.path) == ["/redirect/2"])
    }

    @Test func theDelegateCanChangeTheNextHop() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let target = server.url("/anything/changed")
        let delegate = RedirectDecider { _, proposed in
            var changed = proposed
            changed.url = target
            changed.setValue("yes", forHTTPHeaderField: "X-Changed")
            return changed
        }
        let session = URLSession(configuration: .tapedeck(transport: server.transport()), delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: server.url("/redirect/1"))
        #expect((response as? HTTPURLResponse)?.url == target)
        #expect(try echoedHeaders(data)["x-changed"] == "yes")
        #expect(server.journal.entries.map(\.path) == ["/redirect/1", "/anything/changed"])
    }

    @Test func cookiesLiveInTheConfigurationsStorageOnEveryHop() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let configuration = URLSessionConfiguration.tapedeck(transport: server.transport())
        let storage = try #require(configuration.httpCookieStorage)
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: server.url("/cookies/set?flavour=oatmeal"))
        #expect((response as? HTTPURLResponse)?.url?.path == "/cookies")
        #expect(try echo(data)["cookies"] as? [String: String] == ["flavour": "oatmeal"])
        #expect(storage.cookies(for: server.url("/"))?.map(\.name) == ["flavour"])
        // Set by hand in the storage, sent by the next request.
        storage.setCookie(try #require(HTTPCookie(properties: [.name: "hand", .value: "made", .domain: "127.0.0.1", .path: "/"])))
        let (again, _) = try await session.data(from: server.url("/cookies"))
        #expect(try echo(again)["cookies"] as? [String: String] == ["flavour": "oatmeal", "hand": "made"])
    }

    @Test func noCookieIsSentWhenTheConfigurationSaysSo() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let base = URLSessionConfiguration.ephemeral
        base.httpShouldSetCookies = false
        let session = URLSession(configuration: .tapedeck(transport: server.transport(), base: base))
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: server.url("/cookies/set?flavour=oatmeal"))
        #expect(try echo(data)["cookies"] as? [String: String] == [:])
    }

    @Test func anUnansweredChallengeCompletesWithItsFourOhOne() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let session = makeSession(server.transport())
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(from: server.url("/basic-auth/ada/lovelace"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 401)
        #expect(http.value(forHTTPHeaderField: "WWW-Authenticate") == nil)
        #expect(http.value(forHTTPHeaderField: "X-Tapedeck-WWW-Authenticate")?.hasPrefix("Basic") == true)
    }

    @Test func defaultHandlingAnswersFromTheCredentialStorage() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let base = URLSessionConfiguration.ephemeral
        let storage = URLCredentialStorage()
        let space = URLProtectionSpace(host: "127.0.0.1", port: Int(server.port), protocol: "http", realm: "Fake Realm",
                                       authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
        storage.setDefaultCredential(URLCredential(user: "ada", password: "lovelace", persistence: .forSession), for: space)
        base.urlCredentialStorage = storage
        let session = URLSession(configuration: .tapedeck(transport: server.transport(), base: base))
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: server.url("/basic-auth/ada/lovelace"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try echo(data)["authenticated"] as? Bool == true)
    }

    @Test func aDelegateTaskGetsTheBodyAsItArrivesAndHearsOfUploadProgress() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let delegate = StreamWatcher()
        let session = URLSession(configuration: .tapedeck(transport: server.transport()), delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: server.url("/drip?numbytes=4&duration=0.4&delay=0")).resume()
        await delegate.finished.stream.first { _ in true }
        #expect(delegate.chunks.withLock { $0 }.count >= 2)
        #expect(delegate.chunks.withLock { $0 }.reduce(0, +) == 4)

        let payload = Data(repeating: 7, count: 300_000)
        var upload = URLRequest(url: server.url("/post"))
        upload.httpMethod = "POST"
        session.uploadTask(with: upload, from: payload).resume()
        await delegate.finished.stream.first { _ in true }
        #expect(delegate.sent.withLock { $0 }.last == Int64(payload.count))
        #expect(delegate.sent.withLock { $0 } == delegate.sent.withLock { $0 }.sorted())
    }

    @Test func aGivenHTTPCacheAnswersUnderTheRequestsCachePolicy() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let session = URLSession(configuration: .tapedeck(transport: server.transport(), cache: HTTPCache(memoryCapacity: 1 << 20)))
        defer { session.finishTasksAndInvalidate() }
        let url = server.url("/cache/60")
        let (first, _) = try await session.data(from: url)
        let (second, response) = try await session.data(from: url)
        #expect(second == first)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(server.journal.entries.count == 1)
        var reload = URLRequest(url: url)
        reload.cachePolicy = .reloadIgnoringLocalCacheData
        _ = try await session.data(for: reload)
        #expect(server.journal.entries.count == 2)
    }

    @Test func aCassetteRecordedWithTheRedirectsInsideOneInteractionStillReplays() async throws {
        try await withTemporaryDirectory { directory in
            let cassette = directory.cassette()
            try Data("""
            {"version": 1, "interactions": [{
              "recordedAt": "2026-11-22T03:00:00.000Z",
              "request": {"method": "GET", "url": "http://127.0.0.1:9/redirect/2", "headers": []},
              "response": {"status": 200, "reason": "OK", "httpVersion": "HTTP/1.1", "url": "http://127.0.0.1:9/get",
                           "headers": [["Content-Type", "text/plain"]], "body": {"encoding": "utf8", "text": "final"}}
            }]}
            """.utf8).write(to: cassette)
            let session = makeSession(try openCassette(cassette, mode: .replay))
            defer { session.finishTasksAndInvalidate() }
            let (data, response) = try await session.data(from: URL(string: "http://127.0.0.1:9/redirect/2")!)
            #expect(String(decoding: data, as: UTF8.self) == "final")
            #expect((response as? HTTPURLResponse)?.url?.path == "/get")
        }
    }
}

/// A delegate that decides redirects with a closure and notes each one it saw.
private final class RedirectDecider: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // @unchecked: `seen` is behind a lock; `decide` is immutable.
    let decide: @Sendable (HTTPURLResponse, URLRequest) -> URLRequest?
    let seen = Locked<[String]>([])

    init(decide: @escaping @Sendable (HTTPURLResponse, URLRequest) -> URLRequest?) { self.decide = decide }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        seen.withLock { $0.append("\(response.statusCode) -> \(request.url?.path ?? "")") }
        completionHandler(decide(response, request))
    }
}

/// A delegate that notes the size of each body chunk and the running count of bytes sent.
private final class StreamWatcher: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: its state is behind locks.
    let chunks = Locked<[Int]>([])
    let sent = Locked<[Int64]>([])
    let finished = AsyncStream<Void>.makeStream()

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        chunks.withLock { $0.append(data.count) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                    totalBytesExpectedToSend: Int64) {
        sent.withLock { $0.append(totalBytesSent) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finished.continuation.yield()
    }
}
