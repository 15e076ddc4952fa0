import Foundation
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport

/// The door for any other client: the curl command-line tool, following redirects and answering challenges itself,
/// through `tapedeck record --proxy`. Its cassette holds one interaction per hop, as the in-process doors' do, and
/// replays through each of them with what curl saw live.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs the curl command-line tool"))
struct ProxyDoorTests {
    static let host = "flows.example.test"

    /// The flows curl takes on its own: it keeps no cache and does not retry.
    static let flows = SessionFlow.all.filter { !$0.cached && !$0.retries }

    @Test(arguments: flows)
    func aFlowCurlRecordedThroughTheProxyReplaysThroughEveryDoor(_ flow: SessionFlow) async throws {
        try await withTemporaryDirectory { directory in
            let server = try flow.server()
            let cassette = directory.cassette()
            let recorder = try Self.launchTapedeck([
                "record", "--proxy", "--cassette", cassette.path, "--listen", "127.0.0.1:0", "--allow-host", Self.host,
                "--connect-to", "\(Self.host):80:127.0.0.1:\(server.port)"
            ])
            let live = try Self.curl(flow, proxy: recorder.proxyURL)
            recorder.process.interrupt()
            recorder.process.waitUntilExit()
            server.stop()
            #expect(live.status == 0, "curl: \(live.output)")
            #expect(flow.check(Data(live.output.utf8)), "\(flow.name) through curl: \(live.output)")
            let recorded = try CassetteFile.load(cassette)
            #expect(recorded.interactions.count == flow.hops, "\(flow.name): curl's hops \(recorded.interactions.map(\.request.url))")

            let replayEveryDoor = {
                for door in Door.allCases {
                    let replaying = try openCassette(cassette, mode: .replay)
                    let replayed = try await door.run(flow, over: replaying, server: URL(string: "http://\(Self.host)/")!)
                    #expect(replayed.status == flow.expectedStatus, "\(flow.name): recorded by curl, replayed through \(door)")
                    #expect(String(decoding: replayed.body, as: UTF8.self) == live.output, "\(flow.name): recorded by curl, replayed through \(door)")
                    #expect(try replaying.finish().unplayed.isEmpty, "\(flow.name): \(door) left curl's hops unplayed")
                }
            }
            if flow.path.hasPrefix("/cookies/set") {
                // The recorder redacts by default (the proxy has no switch to turn it off): the cookie's value becomes
                // a secret, scrubbed from the next request's URL too, so the hop no longer matches. Stand-ins that
                // keep a redacted value's identity (issue H6) make this pass; it then fails here as a reminder.
                await withKnownIssue("default redaction scrubs a cookie's value from the URL that set it") { try await replayEveryDoor() }
            } else {
                try await replayEveryDoor()
            }
        }
    }

    /// Runs curl the way the flow needs: following redirects with its cookie engine on, answering a challenge.
    private static func curl(_ flow: SessionFlow, proxy: String) throws -> (status: Int32, output: String) {
        var arguments = ["-s", "--max-time", "30", "-x", proxy, "-L", "-c", "/dev/null"]
        if flow.method != .get { arguments += ["-X", flow.method.rawValue] }
        if let body = flow.body { arguments += ["--data-binary", String(decoding: body, as: UTF8.self), "-H", "Content-Type: text/plain"] }
        if let credential = flow.credential {
            arguments += [flow.path.contains("digest") ? "--digest" : "--anyauth", "-u", "\(credential.user):\(credential.password)"]
        }
        // `-X POST` would keep POST after a 301/302/303; without it curl turns it into GET as URLSession does.
        if flow.method == .post { arguments.removeAll { $0 == "-X" || $0 == "POST" } }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments + ["http://\(host)\(flow.path)"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Starts the built `tapedeck` with `arguments` and reads its output up to the line that says it is ready.
    private static func launchTapedeck(_ arguments: [String]) throws -> (process: ChildProcess, proxyURL: String) {
        let process = ChildProcess()
        process.executableURL = tapedeck
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("Press Ctrl-C"), Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let url = text.matches(of: /http:\/\/127\.0\.0\.1:\d+/).map { String($0.output) }.last ?? ""
        return (process, url)
    }

    /// The `tapedeck` executable beside the test bundle.
    private static let tapedeck: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tapedeck")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/tapedeck")
    }()
}
