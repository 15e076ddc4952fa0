import Foundation
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckStubServer
import TapedeckTestSupport

/// The door for any other client: the curl command-line tool, following redirects and answering challenges itself,
/// through `tapedeck record --proxy`. Its cassette holds one interaction per hop, as the in-process doors' do, and
/// replays through each of them with what curl saw live.
@Suite(.serialized, .enabled(if: Curl.isInstalled, "needs the curl command-line tool"))
struct ProxyDoorTests {
    static let host = "flows.example.test"

    /// The flows curl takes on its own: it keeps no cache and does not retry.
    static let flows = SessionFlow.all.filter { !$0.cached && !$0.retries }

    @Test(arguments: flows)
    func aFlowCurlRecordedThroughTheProxyReplaysThroughEveryDoor(_ flow: SessionFlow) async throws {
        try await withTemporaryDirectory { directory in
            let server = try flow.server()
            let cassette = directory.cassette()
            let recorder = try await ServingCommand.launch(ServingCommand.tapedeck, [
                "record", "--proxy", "--cassette", cassette.path, "--listen", "127.0.0.1:0", "--allow-host", Self.host,
                "--connect-to", "\(Self.host):80:127.0.0.1:\(server.port)"
            ])
            let live = try await Self.curl(flow, proxy: recorder.baseURL)
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
            // The recorder redacts by default (the proxy has no switch to turn it off): a cookie's value becomes its
            // stand-in in Set-Cookie and in the Cookie curl sent back, which every door's cookie store sends back too.
            try await replayEveryDoor()
        }
    }

    /// Runs curl the way the flow needs: following redirects with its cookie engine on, answering a challenge.
    private static func curl(_ flow: SessionFlow, proxy: String) async throws -> (status: Int32, output: String) {
        var arguments = ["-x", proxy, "-L", "-c", "/dev/null"]
        // No `-X POST`: with it curl would keep POST after a 301/302/303; without it curl turns it into GET, as
        // URLSession does. Other methods are named.
        if flow.method != .get && flow.method != .post { arguments += ["-X", flow.method.rawValue] }
        if let body = flow.body { arguments += ["--data-binary", String(decoding: body, as: UTF8.self), "-H", "Content-Type: text/plain"] }
        if let credential = flow.credential {
            arguments += [flow.path.contains("digest") ? "--digest" : "--anyauth", "-u", "\(credential.user):\(credential.password)"]
        }
        return try await Curl.run(arguments + ["http://\(host)\(flow.path)"])
    }
}
