import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckURLSession

@Suite struct URLSessionAdapterTests {
    @Test func asyncDataTaskGoesThroughTheTransport() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let probe = ProbeTransport(upstream: server.transport())
        let session = makeSession(probe)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: server.url("/get?a=1"))
        request.setValue("yes", forHTTPHeaderField: "X-Probe")
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
        #expect(try echo(data)["args"] as? [String: String] == ["a": "1"])
        #expect(try echoedHeaders(data)["x-probe"] == "yes")
        #expect(probe.log.requests.withLock { $0.map(\.url) } == [server.url("/get?a=1")])
    }

    /// The door over a transport that is itself a URLSession (what `CassetteScope` records through when no upstream
    /// is given): the transfer must not start on `startLoading`'s stack, which runs on FoundationNetworking's work
    /// queue, where the inner session's `resume()` waits for the same queue (`Task.immediate` there trapped in
    /// `__DISPATCH_WAIT_FOR_QUEUE__`).
    @Test func aURLSessionTransportUnderTheDoorWorks() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let session = makeSession(URLSessionTransport())
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: server.url("/get?inner=1"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try echo(data)["args"] as? [String: String] == ["inner": "1"])
    }

    @Test func completionHandlerDataTask() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let session = makeSession(server.transport())
        defer { session.finishTasksAndInvalidate() }
        let (data, response, error) = await completionDataTask(session, URLRequest(url: server.url("/status/418")))
        #expect(error == nil)
        #expect((response as? HTTPURLResponse)?.statusCode == 418)
        #expect(data != nil)
    }

    @Test func delegateCallbacksArriveInOrder() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let recorder = OrderRecorder()
        let session = URLSession(configuration: .tapedeck(transport: server.transport()), delegate: recorder, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: server.url("/bytes/5000")).resume()
        for await _ in recorder.done.stream { break }
        #expect(recorder.events.withLock { $0 } == ["response", "data", "complete"])
    }

    @Test func theProtocolComesFirstAndEachConfigurationKeepsItsTransport() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let first = ProbeTransport(upstream: server.transport())
        let second = ProbeTransport(upstream: server.transport())
        let firstConfiguration = URLSessionConfiguration.tapedeck(transport: first)
        let classes = try #require(firstConfiguration.protocolClasses)
        #expect(classes.first is TransportURLProtocol.Type)
        #expect(classes.count == (URLSessionConfiguration.ephemeral.protocolClasses?.count ?? 0) + 1)
        let firstSession = URLSession(configuration: firstConfiguration)
        let secondSession = makeSession(second)
        defer {
            firstSession.finishTasksAndInvalidate()
            secondSession.finishTasksAndInvalidate()
        }
        _ = try await firstSession.data(from: server.url("/get?to=first"))
        _ = try await secondSession.data(from: server.url("/get?to=second"))
        _ = try await secondSession.data(from: server.url("/get?to=second"))
        #expect(first.log.requests.withLock { $0.map(\.url.query) } == ["to=first"])
        #expect(second.log.requests.withLock { $0.map(\.url.query) } == ["to=second", "to=second"])
    }

    @Test func additionalHeadersOfTheBaseConfigurationAreSent() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let base = URLSessionConfiguration.ephemeral
        base.httpAdditionalHeaders = ["X-Session": "base", "X-Overridden": "base"]
        let session = makeSession(server.transport(), base: base)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: server.url("/get"))
        request.setValue("request", forHTTPHeaderField: "X-Overridden")
        let (data, _) = try await session.data(for: request)
        let headers = try echoedHeaders(data)
        #expect(headers["x-session"] == "base")
        #expect(headers["x-overridden"] == "request")
    }

    @Test func uploadTaskWithData() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let session = makeSession(server.transport())
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: server.url("/post"))
        request.httpMethod = "POST"
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await session.upload(for: request, from: Data("uploaded bytes".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try echo(data)["data"] as? String == "uploaded bytes")
    }

    @Test func uploadTaskFromFile() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("body.txt")
        try Data("from a file".utf8).write(to: file)
        let session = makeSession(server.transport())
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: server.url("/put"))
        request.httpMethod = "PUT"
        let (data, _) = try await session.upload(for: request, fromFile: file)
        #expect(try echo(data)["data"] as? String == "from a file")
    }

    @Test func postWithABodyStreamIsReadFully() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let probe = ProbeTransport(upstream: server.transport())
        let session = makeSession(probe)
        defer { session.finishTasksAndInvalidate() }
        let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var request = URLRequest(url: server.url("/post"))
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        request.httpBodyStream = InputStream(data: body)
        let (_, response) = try await session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let sent = try #require(probe.log.requests.withLock { $0.first })
        guard case .data(let sentBody) = sent.body else {
            Issue.record("the stream was not read into the request: \(sent.body)")
            return
        }
        #expect(sentBody == body)
    }

    /// FoundationNetworking finishes a download task by force-unwrapping a temporary file URL that only its own HTTP
    /// protocol can set (`URLProtocol.properties` is internal): a download finished by any custom protocol crashes
    /// the process. The adapter fails such a task with `URLError(.unsupportedURL)` instead; on Apple platforms the
    /// download works.
    @Test func downloadTask() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let probe = ProbeTransport(upstream: server.transport())
        let session = makeSession(probe)
        defer { session.finishTasksAndInvalidate() }
        let request = URLRequest(url: server.url("/bytes/100000"))
        #if canImport(FoundationNetworking)
        let code = await urlErrorCode { _ = try await session.download(for: request) }
        #expect(code == .unsupportedURL)
        #expect(probe.log.requests.withLock { $0.isEmpty }, "nothing is sent for a download task")
        #else
        let (file, response) = try await session.download(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let downloaded = try Data(contentsOf: file)
        let direct = try await server.transport().send(HTTPRequest(url: server.url("/bytes/100000")))
        #expect(downloaded.count == 100_000)
        #expect(downloaded == direct.data)
        #endif
    }

    /// The workaround for downloads on Linux: a data task, its body written where it is wanted.
    @Test func dataTaskBodyWrittenToAFile() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let session = makeSession(server.transport())
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: server.url("/bytes/100000"))
        try data.write(to: directory.file("bytes"))
        let direct = try await server.transport().send(HTTPRequest(url: server.url("/bytes/100000")))
        #expect(try Data(contentsOf: directory.file("bytes")) == direct.data)
    }

    @Test func redirectsAreFollowedAndTheFinalURLIsReported() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let session = makeSession(server.transport())
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: server.url("/redirect/2"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.url?.path == "/get")
        #expect(try echo(data)["url"] as? String == server.url("/get").absoluteString)
    }

    @Test func aTimeoutKeepsItsURLErrorCode() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let session = makeSession(server.transport())
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: server.url("/delay/2"))
        request.timeoutInterval = 0.2
        let code = await urlErrorCode { _ = try await session.data(for: request) }
        #expect(code == .timedOut)
    }

    @Test func theConfigurationTimeoutAppliesToRequestsLeftAtTheDefault() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let base = URLSessionConfiguration.ephemeral
        base.timeoutIntervalForRequest = 0.2
        let probe = ProbeTransport(upstream: server.transport())
        let session = makeSession(probe, base: base)
        defer { session.finishTasksAndInvalidate() }
        let code = await urlErrorCode { _ = try await session.data(from: server.url("/delay/2")) }
        #expect(code == .timedOut)
        var explicit = URLRequest(url: server.url("/get"))
        explicit.timeoutInterval = 30
        _ = try await session.data(for: explicit)
        #expect(probe.log.requests.withLock { $0.map(\.timeoutInterval) } == [0.2, 30])
    }

    @Test func aRefusedConnectionKeepsItsURLErrorCode() async throws {
        // Port 1 (tcpmux) has no listener here; a stopped server's port could be taken by another test's server.
        let url = URL(string: "http://127.0.0.1:1/get")!
        let session = makeSession(CurlTransport())
        defer { session.finishTasksAndInvalidate() }
        let code = await urlErrorCode { _ = try await session.data(from: url) }
        #expect(code == .cannotConnectToHost)
    }

    @Test func aURLErrorPassesThroughAsItIs() async throws {
        let url = URL(string: "http://127.0.0.1:9/x")!
        let thrown = URLError(.secureConnectionFailed, failingURL: url, reason: "made up", transportCode: 35)
        let session = makeSession(FailingTransport(error: thrown))
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(from: url)
            Issue.record("no error")
        } catch let error as URLError {
            #expect(error.code == .secureConnectionFailed)
            #expect(error.transportCode == 35)
            #expect(error.localizedDescription == "made up")
        }
    }

    @Test func anotherErrorBecomesUnknownWithItsDescription() async throws {
        let session = makeSession(FailingTransport(error: NotAURLError()))
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(from: URL(string: "http://127.0.0.1:9/x")!)
            Issue.record("no error")
        } catch let error as URLError {
            #expect(error.code == .unknown)
            #expect(error.localizedDescription == "the transport gave up")
        }
    }

    @Test func cancellingTheTaskCancelsTheTransfer() async throws {
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let probe = ProbeTransport(upstream: server.transport())
        let session = makeSession(probe)
        defer { session.finishTasksAndInvalidate() }
        let finished = AsyncStream<(any Error)?>.makeStream()
        // An answer that comes only after two minutes: on a machine so busy that the cancellation takes seconds to be
        // delivered (FoundationNetworking delivers it on its own dispatch queues), the transfer still cannot finish first.
        server.route(.get, "/stall", response: StubResponse(body: .data(Data("late".utf8)), delay: .seconds(120)))
        let task = session.dataTask(with: server.url("/stall")) { _, _, error in
            finished.continuation.yield(error)
        }
        task.resume()
        for await _ in probe.log.started.stream { break }
        task.cancel()
        var error: (any Error)?
        for await reported in finished.stream {
            error = reported
            break
        }
        #expect((error as? URLError)?.code == .cancelled)
        // The transport saw its Swift task cancelled (instead of waiting out the delay): its request ended with
        // URLError.cancelled, however long a busy machine takes to say so.
        for await ended in probe.log.ended.stream {
            guard case .failure(let failure) = ended else { Issue.record("the transfer ran to its end: \(ended)"); break }
            #expect(failure.code == .cancelled)
            break
        }
        #expect(probe.log.cancelledErrors.withLock { $0 } == 1)
    }
}
