import Foundation
import Testing
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
#if canImport(Glibc)
import Glibc
import TapedeckTestSupport
#endif

@Suite struct SafetyTests {
    @Test func secondRecorderIsRefusedAndNothingIsCorrupted() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        defer { server.stop() }
        let first = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport())
        _ = try await first.send(HTTPRequest(url: server.url("/get?a=1")))
        #expect {
            try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport())
        } throws: { error in
            guard case CassetteError.locked = error else { return false }
            return "\(error)".contains("process \(getpid())") && (error as NSError).code == 6
        }
        // Replay needs no lock and sees what is on disk so far.
        #expect(try CassetteFile.load(directory.cassette()).interactions.count == 1)
        try first.finish()
        let second = try openCassette(directory.cassette(), mode: .newEpisodes, upstream: CurlTransport())
        _ = try await second.send(HTTPRequest(url: server.url("/get?a=2")))
        try second.finish()
        #expect(try CassetteFile.load(directory.cassette()).interactions.count == 2)
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(beside.filter { $0.hasSuffix(".lock") }.isEmpty, "no lock file is left beside the cassette: \(beside)")
    }

    @Test func concurrentTasksRecordIntoOneCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        let transport = try openCassette(directory.cassette(), mode: .all, upstream: CurlTransport())
        let count = 150
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { _ = try await transport.send(HTTPRequest(url: server.url("/anything/\(index)"))) }
            }
            try await group.waitForAll()
        }
        // Mid-run, before finish: the file plus journal already hold every interaction.
        #expect(try CassetteFile.load(directory.cassette()).interactions.count == count)
        try transport.finish()
        server.stop()
        let cassette = try CassetteFile.load(directory.cassette())
        #expect(Set(cassette.interactions.map(\.request.url)).count == count)
        let player = try openCassette(directory.cassette(), mode: .replay)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    let response = try await player.send(HTTPRequest(url: server.url("/anything/\(index)")))
                    #expect(String(decoding: response.data ?? Data(), as: UTF8.self).contains(#"anything\/\#(index)""#))
                }
            }
            try await group.waitForAll()
        }
        try player.finish(requireAllPlayed: true)
    }

    @Test func secretsNeverReachTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        let secrets = ["bearer-secret-1", "qs-secret-2", "cookie-secret-3", "json-secret-4"]
        var request = HTTPRequest(method: .post, url: server.url("/post?access_token=qs-secret-2&page=1"),
                                  headers: ["Authorization": "Bearer bearer-secret-1", "Cookie": "sid=cookie-secret-3", "Content-Type": "application/json"])
        request.body = .data(Data(#"{"client_secret":"json-secret-4","name":"n"}"#.utf8))
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: CurlTransport())
        _ = try await recorder.send(request)
        try recorder.finish()
        server.stop()
        // The httpbin echo repeats the secrets in its response body: they must be gone from the whole folder.
        for file in try FileManager.default.subpathsOfDirectory(atPath: directory.url.path) {
            let contents = try String(contentsOf: directory.url.appendingPathComponent(file), encoding: .isoLatin1)
            for secret in secrets { #expect(!contents.contains(secret), "\(secret) leaked into \(file)") }
        }
        let player = try openCassette(directory.cassette(), mode: .replay, configuration: CassetteConfiguration(matching: [.method, .url, .headers("Authorization")]))
        #expect(try await player.send(request).statusCode == 200)
    }

    @Test func corruptCassetteNamesFileLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("{\n  \"version\": 1,\n  \"interactions\": [\n    }\n".utf8).write(to: directory.cassette())
        #expect {
            try openCassette(directory.cassette(), mode: .replay)
        } throws: { error in
            "\(error)".contains(directory.cassette().path) && "\(error)".contains("line 4, column 5")
        }
    }

    /// The child half of ``killedRecorderLeavesAValidCassette()``: records until it is killed, flat out for its
    /// first 200 interactions and then one every 20 ms.
    ///
    /// The pace keeps the cassette small however late the parent looks. Flat out all the way, the child recorded
    /// 18,000 interactions (36 MB) while the full suite kept the parent waiting, and the parent's loading and folding
    /// of them then held a cooperative thread for 22 s; with the CLI sweep holding the other, every test stalled (a
    /// FaultTests request never left in CI). Paced, the kill still lands while a recording is under way.
    @Test func crashChildRecordsUntilKilled() async throws {
        guard let path = ProcessInfo.processInfo.environment["TAPEDECK_CASSETTE_CRASH_CHILD"] else { return }
        let server = try StubServer.httpbin()
        let transport = try openCassette(URL(fileURLWithPath: path), mode: .all, upstream: CurlTransport())
        for index in 0..<100_000 {
            if index >= 200 { try await Task.sleep(for: .milliseconds(20)) }
            _ = try await transport.send(HTTPRequest(method: .post, url: server.url("/post?i=\(index)"), body: .data(Data(repeating: 65, count: 2_000))))
        }
    }

    @Test func killedRecorderLeavesAValidCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("crash.json")
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "crashChildRecordsUntilKilled"]
        child.environment = ProcessInfo.processInfo.environment.merging(["TAPEDECK_CASSETTE_CRASH_CHILD": cassette.path]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        var seen = 0
        let deadline = ContinuousClock.now + .seconds(60)
        // Each look parses the whole cassette, so it looks every 250 ms, and the child (which records as fast as it
        // can, a core's worth) is killed after 50: at 50 ms and 300 the two kept a core and a cooperative thread busy
        // for most of a minute in the full suite.
        while seen < 50, ContinuousClock.now < deadline, child.isRunning {
            try await Task.sleep(for: .milliseconds(250))
            seen = (try? CassetteFile.load(cassette).interactions.count) ?? 0
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        let survived = try CassetteFile.load(cassette)
        #expect(survived.interactions.count >= seen && seen >= 50)
        #expect(survived.interactions.enumerated().allSatisfy { $1.request.url.hasSuffix("?i=\($0)") })
        // The kernel dropped the dead recorder's lock: a new recorder folds the journal into the file.
        let reopened = try openCassette(cassette, mode: .newEpisodes, upstream: CurlTransport())
        try reopened.finish()
        #expect(try CassetteCodec.decode(Data(contentsOf: cassette)).interactions.count == survived.interactions.count)
    }
}
