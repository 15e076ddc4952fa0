import Foundation
import Testing

/// `tapedeck serve --stubs` serves a stub file until SIGTERM; `tapedeck fetch` talks to it.
@Suite struct ServeEndToEndTests {
    @Test func servesStubsAnswersFetchAndStopsOnSIGTERM() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stubs = folder.appendingPathComponent("stubs.json")
        try Data(#"{"stubs":[{"request":{"method":"GET","path":"/hello"},"response":{"status":200,"headers":{"Content-Type":"text/plain"},"body":"world"}}]}"#.utf8)
            .write(to: stubs)
        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = ["serve", "--stubs", stubs.path, "--port", "0"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("Press Ctrl-C"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let base = try #require(text.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+/)).output
        let fetched = try CLIRunner.run(["fetch", "-i", "\(base)/hello"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(fetched.stdout.hasSuffix("\n\nworld"))
        let missing = try CLIRunner.run(["fetch", "http://127.0.0.1:1/"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("URLError -1004 cannotConnectToHost"))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("Received SIGTERM; stopped after 1 request(s)."))
    }

    @Test func refusesABadStubFileNamingThePlace() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stubs = folder.appendingPathComponent("bad.json")
        try Data(#"{"stubs":[{"request":{"method":3}}]}"#.utf8).write(to: stubs)
        let result = try CLIRunner.run(["serve", "--stubs", stubs.path, "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.json: invalid stub definition at stubs[0].request.method"))
    }
}
