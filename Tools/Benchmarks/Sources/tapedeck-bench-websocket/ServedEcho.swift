import Foundation
import TapedeckCassette
import TapedeckStubServer
import TapedeckWebSocket

/// The stub server side of the echo comparison: a cassette of COUNT recorded round trips (a 32-byte text and its
/// echo, then the client's close and the server's), served to every connection.
enum ServedEcho {
    static func run(roundTrips: Int) throws {
        let payload = String(repeating: "x", count: 32)
        var frames: [WebSocketTranscript.Frame] = []
        frames.reserveCapacity(roundTrips * 2 + 2)
        for _ in 0..<roundTrips {
            frames.append(.init(direction: .client, kind: .text(payload), offset: 0))
            frames.append(.init(direction: .server, kind: .text(payload), offset: 0))
        }
        frames.append(.init(direction: .client, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0))
        frames.append(.init(direction: .server, kind: .close(WebSocketClose(code: .normalClosure)), offset: 0))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-bench-echo-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try CassetteFile.save(Cassette(interactions: [Interaction(
            request: .init(method: "GET", url: "ws://127.0.0.1:9/"), outcome: .response(.init(statusCode: 101, reasonPhrase: "Switching Protocols")),
            webSocket: WebSocketTranscript(frames: frames))]), to: file)
        let server = try StubServer(cassette: file, cassetteConfiguration: CassetteConfiguration(allowPlaybackRepeats: true))
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        server.stop()
    }
}
