import Foundation
import Glibc
import Testing
import TapedeckCore
@testable import TapedeckCurl
import TapedeckSession
import TapedeckStubServer
import TapedeckTestSupport

/// One test per row of the error table in ``CurlErrorMapping``, each provoked for real over loopback.
extension Loopback {
@Suite struct ErrorMappingTests {
    let transport = CurlTransport()

    @Test func connectionRefusedIsCannotConnectToHost() async throws {
        let refusing = try RefusingLoopbackPort()
        defer { withExtendedLifetime(refusing) {} }
        let url = refusing.url("/")
        do {
            _ = try await transport.send(HTTPRequest(url: url))
            Issue.record("expected a failure")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
            #expect(error.code.rawValue == -1004)
            #expect(error.failingURL == url)
            #expect(error.transportCode == 7)
            #expect(error.transportMessage?.isEmpty == false)
        }
    }

    @Test func unknownHostIsCannotFindHost() async throws {
        // A 64-byte label is rejected by the resolver before any query is sent, so nothing leaves the machine.
        let host = String(repeating: "a", count: 64) + ".invalid"
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: URL(string: "http://\(host)/")!)) }
        #expect(code == .cannotFindHost)
    }

    /// The 0.3 s timeout ends the silence as `-1001`, not before its time (libcurl counts whole milliseconds, hence
    /// the margin); a hang is ended by the time limit.
    @Test(.timeLimit(.minutes(10))) func silenceBeyondTheIdleTimeoutIsTimedOut() async throws {
        let server = try FaultSocketServer(.silent)
        defer { server.stop() }
        let started = ContinuousClock.now
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url, timeoutInterval: 0.3)) }
        #expect(code == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(290))
    }

    @Test func totalTimeoutIsTimedOut() async throws {
        try await withStubServer { server in
            server.route(.get, "/slow", response: StubResponse(body: .chunked(ChunkedBody(
                data: Data(count: 100), chunkSize: 1, interval: .milliseconds(20)))))
            let request = HTTPRequest(url: server.url("/slow"), timeoutInterval: 10, totalTimeout: 0.2)
            let code = await urlErrorCode { _ = try await transport.send(request) }
            #expect(code == .timedOut)
        }
    }

    @Test func resetIsNetworkConnectionLost() async throws {
        let server = try FaultSocketServer(.reset)
        defer { server.stop() }
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url)) }
        #expect(code == .networkConnectionLost)
    }

    @Test func emptyReplyIsBadServerResponse() async throws {
        let server = try FaultSocketServer(.closeWithoutResponse)
        defer { server.stop() }
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url)) }
        #expect(code == .badServerResponse)
    }

    @Test func truncatedBodyIsNetworkConnectionLost() async throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a part"
        let server = try FaultSocketServer(.raw(Data(raw.utf8)))
        defer { server.stop() }
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url)) }
        #expect(code == .networkConnectionLost)
    }

    @Test func malformedStatusLineIsBadServerResponse() async throws {
        let server = try FaultSocketServer(.raw(Data("NOT HTTP AT ALL\r\n\r\n".utf8)))
        defer { server.stop() }
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url)) }
        #expect(code == .badServerResponse)
    }

    @Test func tlsToAPlainServerIsSecureConnectionFailed() async throws {
        try await withStubServer { server in
            let url = URL(string: "https://127.0.0.1:\(server.port)/")!
            let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: url)) }
            #expect(code == .secureConnectionFailed)
        }
    }

    @Test func untrustedCertificateIsServerCertificateUntrusted() async throws {
        try await withStubServer(.init(tls: Fixtures.localhostIdentity)) { server in
            let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: server.url("/"))) }
            #expect(code == .serverCertificateUntrusted)
            #expect(server.journal.entries.isEmpty)
        }
    }

    @Test func cancellationIsCancelled() async throws {
        try await withStubServer { server in
            server.route(.get, "/slow", response: StubResponse(body: .chunked(ChunkedBody(
                data: Data(count: 1000), chunkSize: 1, interval: .milliseconds(50)))))
            let task = Task { try await transport.send(HTTPRequest(url: server.url("/slow"))) }
            try await Task.sleep(for: .milliseconds(150))
            task.cancel()
            let code = await urlErrorCode { _ = try await task.value }
            #expect(code == .cancelled)
        }
    }

    @Test func aSendCancelledBeforeItStartsIsCancelledAndNeverReachesTheServer() async throws {
        try await withStubServer { server in
            server.route(.get, "/never", response: .text("no"))
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(HTTPRequest(url: server.url("/never")))
            }
            let code = await urlErrorCode { _ = try await task.value }
            #expect(code == .cancelled)
            #expect(server.journal.entries.isEmpty)
        }
    }

    @Test(arguments: ["http://127.0.0.1:99999/", "http://127.0.0.1%00/"])
    func urlsCurlCannotParseAreBadURL(url: String) async throws {
        // Foundation accepts these; curl refuses them before any connection attempt.
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: URL(string: url)!)) }
        #expect(code == .badURL)
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/hostname", "gopher://127.0.0.1/"])
    func otherSchemesAreUnsupportedURL(url: String) async throws {
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: URL(string: url)!)) }
        #expect(code == .unsupportedURL)
    }

    @Test func redirectToAnotherSchemeIsUnsupportedURL() async throws {
        try await withStubServer { server in
            server.route(.get, "/ftp", response: StubResponse(status: 302, headers: ["Location": "ftp://127.0.0.1/x"]))
            // The transport delivers the 302; the session that follows it refuses the target.
            let hop = try await transport.send(HTTPRequest(url: server.url("/ftp")))
            #expect(hop.statusCode == 302)
            let code = await urlErrorCode { _ = try await SessionTransport(transport).send(HTTPRequest(url: server.url("/ftp"))) }
            #expect(code == .unsupportedURL)
        }
    }

    @Test func redirectLoopIsHTTPTooManyRedirects() async throws {
        try await withStubServer { server in
            server.route(.get, "/loop", response: StubResponse(status: 302, headers: ["Location": "/loop"]))
            let request = HTTPRequest(url: server.url("/loop"), redirectPolicy: .follow(maximum: 3))
            let code = await urlErrorCode { _ = try await SessionTransport(transport).send(request) }
            #expect(code == .httpTooManyRedirects)
            #expect(server.journal.entries.count == 4)
        }
    }

    @Test func missingUploadFileIsFileDoesNotExist() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let request = HTTPRequest(method: .put, url: URL(string: "http://127.0.0.1:9/")!, body: .file(directory.file("missing.bin")))
        let code = await urlErrorCode { _ = try await transport.send(request) }
        #expect(code == .fileDoesNotExist)
    }

    @Test func uncreatableDownloadFileIsCannotCreateFile() async throws {
        try await withStubServer { server in
            server.route(.get, "/x", response: .text("x"))
            let destination = URL(fileURLWithPath: "/nonexistent-directory-\(UUID())/file")
            let request = HTTPRequest(url: server.url("/x"), responseBody: .file(destination))
            let code = await urlErrorCode { _ = try await transport.send(request) }
            #expect(code == .cannotCreateFile)
        }
    }

    @Test func aShutDownTransportRefusesWithCancelled() async throws {
        let transport = CurlTransport()
        transport.shutdown()
        let code = await urlErrorCode { _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/")!)) }
        #expect(code == .cancelled)
    }
}
}

/// The mapping table itself, without I/O.
@Suite struct CurlErrorMappingTableTests {
    @Test(arguments: [
        (1, URLError.Code.unsupportedURL), (3, .badURL), (6, .cannotFindHost), (7, .cannotConnectToHost),
        (8, .badServerResponse), (18, .networkConnectionLost), (23, .cannotWriteToFile), (28, .timedOut),
        (35, .secureConnectionFailed), (42, .cancelled), (47, .httpTooManyRedirects), (52, .badServerResponse),
        (55, .networkConnectionLost), (56, .networkConnectionLost), (60, .serverCertificateUntrusted),
        (61, .cannotDecodeContentData), (65, .requestBodyStreamExhausted), (90, .serverCertificateUntrusted),
        (9999, .unknown),
    ])
    func curlCodesMapToFoundationCodes(curlCode: Int, expected: URLError.Code) {
        #expect(CurlErrorMapping.urlErrorCode(curlCode: curlCode) == expected)
    }

    @Test func verificationResultRefinesCertificateFailures() {
        #expect(CurlErrorMapping.urlErrorCode(curlCode: 60, tlsVerifyResult: 10) == .serverCertificateHasBadDate)
        #expect(CurlErrorMapping.urlErrorCode(curlCode: 60, tlsVerifyResult: 9) == .serverCertificateNotYetValid)
        #expect(CurlErrorMapping.urlErrorCode(curlCode: 60, tlsVerifyResult: 18) == .serverCertificateUntrusted)
    }
}
