import Foundation
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckTesting
@testable import TapedeckServices

/// Services join paths the way their `HTTPSessionManager` does (AFNetworking's rule).
@Suite struct ServiceURLTests {
    let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1")!, transport: CurlTransport())

    @Test(arguments: [
        ("users/7", "https://api.example.com/v1/users/7"),
        ("/users/7", "https://api.example.com/users/7"),
        ("http://other.example.com/x", "http://other.example.com/x"),
        ("HTTPS://other.example.com/x?y=1", "HTTPS://other.example.com/x?y=1"),
    ])
    func pathsJoinTheirBaseUnlessAbsolute(path: String, expected: String) throws {
        #expect(try api.url(for: path).absoluteString == expected)
    }

    @Test func anAbsoluteURLWithoutAHostIsRefused() {
        #expect(throws: RequestSerializationError.self) { try api.url(for: "http://") }
    }
}

/// Each test gets a fresh httpbin-style stub server, stopped when the test ends. Its connections stay open for ten
/// minutes: on two cores under a sanitizer, a streamed upload body can wait on the starved task pool for longer than
/// the default minute, and the server would cut it off (seen as "Empty reply from server" and "Broken pipe").
@Suite(.stubServer(.init(connectionTimeout: 600), httpbin: true)) struct NetworkManagerTests {
    let server: StubServer
    let network: NetworkManager

    init() throws {
        server = try #require(TapedeckTest.currentStubServer)
        network = try NetworkManager(config: NetworkConfig(
            dataBaseURL: server.url("/anything/data"), uploadBaseURL: server.url("/"), downloadBaseURL: server.url("/"),
            defaultHeaders: ["X-App": "tapedeck-tests"]), transport: TapedeckTest.transport)
    }

    @Test func dataRequestsSendJSONAndDecodeJSON() async throws {
        let result = try await network.data.post("sign-in", parameters: ["user": "ada"])
        #expect(result.statusCode == 200)
        #expect(result.json?["json"]?["user"]?.stringValue == "ada")
        #expect(result.json?["url"]?.stringValue?.hasSuffix("/anything/data/sign-in") == true)
        #expect(result.json?["headers"]?["X-App"]?.stringValue == "tapedeck-tests")
    }

    @Test func anErrorStatusKeepsItsBody() async throws {
        server.route(.post, "/anything/data/locked", response: .json(Data(#"{"error":"locked"}"#.utf8), status: 423))
        do {
            try await network.data.post("locked")
            Issue.record("a 423 must throw")
        } catch let error as ResponseSerializationError {
            #expect((error as NSError).code == -1011)
            #expect(error.data == Data(#"{"error":"locked"}"#.utf8))
        }
    }

    @Test func multipartUploadsReportProgressToTheEnd() async throws {
        let fractions = Collected<Double>()
        let result = try await network.upload.multipart("post", parameters: ["kind": "avatar"], progress: {
            fractions.append($0.fractionCompleted)
        }) { form in
            form.append(Data(repeating: 7, count: 200_000), name: "avatar", fileName: "a.bin", mimeType: "application/octet-stream")
        }
        #expect(result.json?["form"]?["kind"]?.stringValue == "avatar")
        #expect(fractions.values.last == 1.0)
    }

    @Test func downloadsResumeWithARange() async throws {
        // The first request gets 256 KiB and then nothing for a minute, so the cancel below always lands mid-file;
        // the resumed (ranged) request is answered at full speed.
        let total: Int64 = 4 << 20
        server.route(.get, "/file") { request in
            .generatedHonoringRange(of: request, totalLength: total,
                                    pace: request.headers["Range"] == nil ? (256 << 10, .seconds(60)) : nil)
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = directory.file("file")
        let first = try network.download.start("file", to: destination)
        while first.task.downloadProgress.completedUnitCount < 256 << 10 { try await Task.sleep(for: .milliseconds(5)) }
        let resumeData = try #require(await first.cancelProducingResumeData())
        let fractions = Collected<Double>()
        let file = try await network.download.resume(from: resumeData, to: destination, progress: {
            fractions.append($0.fractionCompleted)
        }).finished()
        #expect(try Data(contentsOf: file) == StubBody.generatedBytes(from: 0, count: Int(total)))
        #expect(server.journal.entries.contains { $0.headers["Range"] != nil })
        #expect(fractions.values.last == 1.0)
    }

    @Test func tasksAreTrackedAndCancelledByKind() async throws {
        server.route(.get, "/slow", response: StubResponse(body: .data(Data("late".utf8)), delay: .seconds(5)))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = directory.file("slow")
        let download = try network.download.start("slow", to: destination)
        #expect(network.runningTasks(of: .download).count == 1)
        #expect(network.runningTasks(of: .data).isEmpty)
        network.cancelTasks(of: .download)
        await #expect(throws: URLError.self) { _ = try await download.finished() }
        #expect(network.runningTasks(of: .download).isEmpty)
    }
}

@Suite struct SecurityLevelTests {
    @Test func levelsMapToAFNetworkingsPinningModes() {
        #expect(SecurityLevel.normal.pinningMode == .none)
        #expect(SecurityLevel.middle.pinningMode == .publicKey)
        #expect(SecurityLevel.high.pinningMode == .certificate)
    }

    @Test(arguments: [SecurityLevel.middle, .high])
    func pinningWithoutCertificatesIsAConfigurationError(level: SecurityLevel) {
        let config = NetworkConfig(baseURL: URL(string: "https://api.example.com/")!, securityLevel: level)
        #expect(throws: SecurityPolicyError.self) { _ = try NetworkManager(config: config) }
    }

    @Test func pinningOverPlainHTTPIsAConfigurationError() throws {
        let server = try StubServer.https(hostNames: ["api.example.test"])
        defer { server.stop() }
        let config = NetworkConfig(baseURL: URL(string: "http://api.example.test/")!, securityLevel: .middle,
                                   pinnedCertificates: server.configuration.trustedCertificates)
        #expect(throws: SecurityPolicyError.self) { _ = try NetworkManager(config: config) }
    }

    @Test(arguments: [SecurityLevel.middle, .high])
    func pinnedLevelsReachAServerWhoseChainHasThePin(level: SecurityLevel) async throws {
        let server = try StubServer.https(hostNames: ["api.example.test"])
        defer { server.stop() }
        server.route(.get, "/me", response: .json(Data(#"{"id":7}"#.utf8)))
        let config = NetworkConfig(baseURL: URL(string: "https://api.example.test/")!, securityLevel: level,
                                   pinnedCertificates: server.configuration.trustedCertificates)
        let network = try NetworkManager(config: config, transport: server.transport())
        #expect(try await network.data.get("me").json?["id"]?.intValue == 7)
    }

    @Test(arguments: [SecurityLevel.middle, .high])
    func pinnedLevelsRefuseAnotherServerBeforeItHearsAnything(level: SecurityLevel) async throws {
        let server = try StubServer.https(hostNames: ["api.example.test"])
        let impostor = try StubServer.https(hostNames: ["api.example.test"])
        defer { server.stop(); impostor.stop() }
        let config = NetworkConfig(baseURL: URL(string: "https://api.example.test/")!, securityLevel: level,
                                   pinnedCertificates: server.configuration.trustedCertificates)
        let network = try NetworkManager(config: config, transport: impostor.transport())
        do {
            try await network.data.get("me")
            Issue.record("a server without the pinned certificate must be refused")
        } catch let error as URLError {
            #expect(error.code == .serverCertificateUntrusted)
        }
        #expect(impostor.journal.entries.isEmpty)
    }
}
