import Foundation
import OpenAPIRuntime
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckOpenAPI
import TapedeckStubServer
import TapedeckTestSupport

/// The generated client over live curl: bodies that stream, transfers that are cancelled, errors that surface.
@Suite struct StreamingAndCancellationTests {
    /// A server whose `/stream-bytes/{n}` sends `chunks` chunks of 1000 bytes and then stalls with the connection open.
    static func stallingServer(_ server: StubServer, chunks: Int) {
        var body = ChunkedBody(data: Data(repeating: UInt8(ascii: "s"), count: chunks * 1000), chunkSize: 1000)
        body.ending = .stall
        server.route(.get, "/stream-bytes/{n}", response: StubResponse(
            headers: ["Content-Type": "application/octet-stream"], body: .chunked(body)
        ))
    }

    /// A client whose idle timeout (10 minutes) no test here reaches: these tests end transfers by cancelling them, and
    /// under ThreadSanitizer, with the whole suite on two cores, a 20 s timeout once fired first (-1001 for -999).
    static func client(_ server: StubServer, _ probe: ProbeTransport) -> Client {
        Client(
            serverURL: server.url("/"),
            transport: TapedeckClientTransport(probe, configuration: .init(timeoutInterval: 600))
        )
    }

    @Test func anUploadOfUnknownLengthIsSentChunkedAndArrivesWhole() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let client = Client(serverURL: server.url("/"), transport: TapedeckClientTransport(CurlTransport()))
            let upload = IncrementalUpload(count: 64, size: 64 * 1024)

            let echo = try await client.uploadBlob(body: .binary(upload.body())).ok.body.json

            #expect(echo.headers.additionalProperties["Transfer-Encoding"] == "chunked")
            #expect(echo.headers.additionalProperties["Content-Length"] == nil)
            #expect(echo.data.map { Data($0.utf8) } == upload.expectedBytes)
            #expect(upload.producedCount == 65)
        }
    }

    @Test func anUploadOfKnownLengthIsSentWithContentLength() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let client = Client(serverURL: server.url("/"), transport: TapedeckClientTransport(CurlTransport()))
            let upload = IncrementalUpload(count: 8, size: 1024)

            let echo = try await client.uploadBlob(body: .binary(upload.body(length: .known(8 * 1024)))).ok.body.json

            #expect(echo.headers.additionalProperties["Content-Length"] == "8192")
            #expect(echo.data.map { Data($0.utf8) } == upload.expectedBytes)
        }
    }

    /// The server sends its chunks and then holds the connection open: the client reads every byte while the transfer
    /// is still under way, which it could not if the body were gathered before `send` returned.
    @Test func aStreamedBodyIsReadWhileTheTransferGoesOnAndDroppingItCancelsTheTransfer() async throws {
        try await withStubServer { server in
            Self.stallingServer(server, chunks: 5)
            let probe = ProbeTransport(upstream: CurlTransport())
            let client = Self.client(server, probe)

            func readWhileStalled() async throws -> Int {
                let body = try await client.streamBytes(path: .init(n: 5000)).ok.body.binary
                var received = 0
                for try await chunk in body {
                    received += chunk.count
                    if received >= 5000 { break }
                }
                return received
            }
            let received = try await readWhileStalled()
            #expect(received == 5000)
            // The body is gone unread past its stall: the transfer ends cancelled, long before its idle timeout.
            let ending = await firstElement(of: probe.log.ended.stream)
            #expect(ending.flatMap { try? $0.get() } == nil)
            if case .failure(let error)? = ending { #expect(error.code == .cancelled) }
        }
    }

    @Test func cancellingTheReaderCancelsTheTransfer() async throws {
        try await withStubServer { server in
            Self.stallingServer(server, chunks: 1)
            let probe = ProbeTransport(upstream: CurlTransport())
            let client = Self.client(server, probe)
            let body = try await client.streamBytes(path: .init(n: 1000)).ok.body.binary
            let (firstChunk, firstChunkArrived) = AsyncStream<Void>.makeStream()

            let reader = Task {
                var received = 0
                for try await chunk in body {
                    received += chunk.count
                    firstChunkArrived.yield()
                }
                return received
            }
            #expect(await firstElement(of: firstChunk) != nil)
            reader.cancel()

            await #expect(throws: CancellationError.self) { _ = try await reader.value }
            let ending = await firstElement(of: probe.log.ended.stream)
            if case .failure(let error)? = ending { #expect(error.code == .cancelled) } else { Issue.record("ended: \(String(describing: ending))") }
        }
    }

    @Test func cancellingTheCallerBeforeTheHeadCancelsTheTransfer() async throws {
        try await withStubServer { server in
            // An answer that comes only after two minutes: under ThreadSanitizer, with the whole suite sharing two cores,
            // the caller was once not scheduled to cancel before a 10 s answer had arrived.
            server.route(.get, "/get", response: StubResponse(status: 200, delay: .seconds(120)))
            let probe = ProbeTransport(upstream: CurlTransport())
            let client = Self.client(server, probe)

            let call = Task { try await client.getEcho(query: .init(name: "late")) }
            // Up to a minute: with the whole suite on two cores the transfer once took more than 10 s to start.
            #expect(await firstElement(of: probe.log.started.stream, within: .seconds(60)) != nil)
            call.cancel()

            let error = await underlyingURLError { _ = try await call.value }
            #expect(error?.code == .cancelled)
            let ending = await firstElement(of: probe.log.ended.stream)
            if case .failure(let error)? = ending { #expect(error.code == .cancelled) } else { Issue.record("ended: \(String(describing: ending))") }
        }
    }

    @Test func aRefusedConnectionIsAURLErrorInsideClientError() async throws {
        // Port 1: no test server ever gets it (they take free ephemeral ports), unlike the port of a server just
        // stopped, which another test's server took while the suite ran under ThreadSanitizer.
        let client = Client(serverURL: URL(string: "http://127.0.0.1:1/")!, transport: TapedeckClientTransport(CurlTransport()))

        let error = await underlyingURLError { _ = try await client.getEcho(query: .init(name: "nobody")) }

        #expect(error?.code == .cannotConnectToHost)
    }

    @Test func aTimeoutKeepsItsURLErrorCode() async throws {
        try await withStubServer { server in
            server.route(.get, "/get", response: StubResponse(status: 200, delay: .seconds(5)))
            let client = Client(
                serverURL: server.url("/"),
                transport: TapedeckClientTransport(CurlTransport(), configuration: .init(timeoutInterval: 0.3))
            )

            let error = await underlyingURLError { _ = try await client.getEcho(query: .init(name: "slow")) }

            #expect(error?.code == .timedOut)
        }
    }

    @Test func anErrorAfterTheHeadIsThrownByTheBody() async throws {
        try await withStubServer { server in
            var body = ChunkedBody(data: Data(repeating: UInt8(ascii: "d"), count: 2000), chunkSize: 1000)
            body.ending = .dropConnection
            server.route(.get, "/stream-bytes/{n}", response: StubResponse(
                headers: ["Content-Type": "application/octet-stream"], body: .chunked(body)
            ))
            let client = Client(serverURL: server.url("/"), transport: TapedeckClientTransport(CurlTransport()))

            let stream = try await client.streamBytes(path: .init(n: 2000))
            let error = await #expect(throws: URLError.self) {
                for try await _ in try stream.ok.body.binary {}
            }
            #expect(error?.code == .networkConnectionLost)
        }
    }
}
