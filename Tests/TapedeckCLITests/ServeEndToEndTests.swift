import Foundation
import Testing
import TapedeckTestSupport

/// `tapedeck serve --stubs` serves a stub file until SIGTERM; `tapedeck fetch` talks to it.
@Suite struct ServeEndToEndTests {
    @Test func servesStubsAnswersFetchAndStopsOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let stubs = folder.appendingPathComponent("stubs.json")
        try Data(#"{"stubs":[{"request":{"method":"GET","path":"/hello"},"response":{"status":200,"headers":{"Content-Type":"text/plain"},"body":"world"}}]}"#.utf8)
            .write(to: stubs)
        let (process, out, base) = try await CLIRunner.startServing(["serve", "--stubs", stubs.path, "--port", "0"])
        defer { if process.isRunning { process.terminate() } }
        try #require(!base.isEmpty, "serve printed no base URL")
        let fetched = try await CLIRunner.run(["fetch", "-i", "\(base)/hello"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(fetched.stdout.hasSuffix("\n\nworld"))
        let missing = try await CLIRunner.run(["fetch", "http://127.0.0.1:1/"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("URLError -1004 cannotConnectToHost"))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("Received SIGTERM; stopped after 1 request(s)."))
    }

    @Test func refusesABadStubFileNamingThePlace() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.url
        let stubs = folder.appendingPathComponent("bad.json")
        try Data(#"{"stubs":[{"request":{"method":3}}]}"#.utf8).write(to: stubs)
        let result = try await CLIRunner.run(["serve", "--stubs", stubs.path, "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.json: invalid stub definition at stubs[0].request.method"))
    }

    @Test func servesAWireMockMappingsFolderWithItsBodyFiles() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mappings = directory.url.appendingPathComponent("mappings")
        let files = directory.url.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data("from a body file".utf8).write(to: files.appendingPathComponent("hello.txt"))
        try Data(#"""
            {"mappings": [
              {"request": {"method": "GET", "url": "/hello?lang=en"}, "response": {"status": 200, "bodyFileName": "hello.txt",
                                                                           "headers": {"Content-Type": "text/plain"}}},
              {"request": {"method": "POST", "urlPath": "/items", "bodyPatterns": [{"matchesJsonPath": "$.name"}]},
               "response": {"status": 201, "jsonBody": {"ok": true}}}
            ]}
            """#.utf8).write(to: mappings.appendingPathComponent("api.json"))
        let served = try await CLIRunner.launch(["serve", "--stubs", mappings.path, "--port", "0"])
        defer { if served.process.isRunning { served.process.terminate() } }
        #expect(served.printed.contains("Serving 2 stub(s) from \(mappings.path) (WireMock mappings) on http://127.0.0.1:"))
        let base = served.baseURL
        try #require(!base.isEmpty, "serve printed no base URL")
        let hello = try await CLIRunner.run(["fetch", "-i", "\(base)/hello?lang=en"])
        #expect(hello.status == 0, "\(hello.stderr)")
        #expect(hello.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(hello.stdout.hasSuffix("\n\nfrom a body file"))
        let other = try await CLIRunner.run(["fetch", "-i", "\(base)/hello?lang=fr"])
        #expect(other.stdout.hasPrefix("HTTP/1.1 404 Not Found\n"), "url compares the query too")
        let created = try await CLIRunner.run(["fetch", "-i", "-X", "POST", "-d", #"{"name": "x"}"#, "\(base)/items"])
        #expect(created.stdout.hasPrefix("HTTP/1.1 201 Created\n"), "\(created.stdout)\(created.stderr)")
        #expect(created.stdout.hasSuffix(#"{"ok":true}"#))
        served.process.terminate()
        served.process.waitUntilExit()
        #expect(served.process.terminationStatus == 0)
    }

    @Test func recognisesAWireMockFileAndHonoursStubsFormat() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("mapping.json")
        try Data(#"""
            [{"request": {"method": "GET", "url": "/ping"}, "response": {"status": 200, "body": "pong"}},
             {"request": {"method": "GET", "url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}]
            """#.utf8).write(to: file)
        let (process, _, base) = try await CLIRunner.startServing(["serve", "--stubs", file.path, "--port", "0"])
        defer { if process.isRunning { process.terminate() } }
        try #require(!base.isEmpty, "serve printed no base URL")
        let fetched = try await CLIRunner.run(["fetch", "\(base)/ping"])
        #expect(fetched.stdout == "pong")
        process.terminate()
        process.waitUntilExit()

        let forced = try await CLIRunner.run(["serve", "--stubs", file.path, "--stubs-format", "tapedeck", "--port", "0"])
        #expect(forced.status == 1)
        #expect(forced.stderr.contains(#"mapping.json: invalid stub definition at [1].response.fault: unknown fault "CONNECTION_RESET_BY_PEER""#),
                "\(forced.stderr)")
        let folder = try await CLIRunner.run(["serve", "--stubs", directory.url.path, "--stubs-format", "tapedeck", "--port", "0"])
        #expect(folder.stderr.contains("is a folder: only WireMock mappings are read from a folder (--stubs-format wiremock)"))
    }

    @Test func refusesAnUnsupportedWireMockFeatureNamingTheMappingAndPlace() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("proxy.json")
        try Data(#"{"mappings": [{"name": "pass through", "request": {"urlPattern": "/.*"}, "response": {"proxyBaseUrl": "http://example.com"}}]}"#.utf8)
            .write(to: file)
        let result = try await CLIRunner.run(["serve", "--stubs", file.path, "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"proxy.json: invalid WireMock mapping at mappings[0].response.proxyBaseUrl (mapping "pass through"): proxying is not supported"#),
                "\(result.stderr)")
    }
}
