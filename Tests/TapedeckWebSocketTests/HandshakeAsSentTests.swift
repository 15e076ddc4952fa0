import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
@testable import TapedeckStubServer
import TapedeckTestSupport
import TapedeckWebSocket
#if canImport(Glibc)
import Glibc
#endif

/// The `101` reaches the client as the upstream sent it, through the recording proxy and from the served cassette;
/// the recording counts its frames from the start of the connection and keeps the connection's timing.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HandshakeAsSentTests {
    /// The `Connection` lines of the `101` that `port` answers an upgrade to `path` with, as bytes on the wire.
    static func connectionLines(port: Int, path: String) throws -> [String] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: in_port_t(UInt16(port).bigEndian),
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "connect to \(port): errno \(errno)")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1)
        while Array(head.suffix(4)) != [13, 10, 13, 10] {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 1, 0) }
            guard count > 0 else { break }
            head.append(buffer[0])
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        try #require(lines.first?.hasPrefix("HTTP/1.1 101") == true, "\(lines)")
        return lines.filter { $0.lowercased().hasPrefix("connection:") }
    }

    @Test func theRelayedAndTheServed101CarryTheUpstreamsConnectionHeader() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("handshake.json")
        let peer = try await PythonWebSocketsPeer.start()
        let upstream = try Self.connectionLines(port: peer.port, path: "/lowercase-connection")
        #expect(upstream == ["Connection: upgrade"])

        let proxy = try StubServer()
        try proxy.recordProxy(upstream: try #require(URL(string: "http://127.0.0.1:\(peer.port)")), cassette: file)
        #expect(try Self.connectionLines(port: Int(proxy.port), path: "/lowercase-connection") == upstream, "relayed")
        let script: [WebSocketMessage] = [.text("one"), .text("two")]
        let proxied = try await PythonWebSocketsClient.converse(try #require(URL(string: "ws://127.0.0.1:\(proxy.port)/lowercase-connection/talk")),
                                                                sending: script)
        #expect(proxied.0 == script)
        #expect(try await proxy.finishRecording()?.interactionCount == 2)
        proxy.stop()
        peer.stop()

        let cassette = try CassetteFile.load(file)
        for interaction in cassette.interactions {
            let timing = interaction.metrics
            #expect(timing.timeToFirstByte > 0 && timing.total >= timing.timeToFirstByte, "\(interaction.request.url): \(timing)")
            #expect(timing.remoteAddress == "127.0.0.1" && timing.remotePort == peer.port)
            #expect(timing.bytesSent > 0 && timing.bytesReceived > 0)
            #expect(timing.connect <= timing.timeToFirstByte)
            for frame in interaction.webSocket?.frames ?? [] {
                #expect(frame.offset >= timing.timeToFirstByte && frame.offset <= timing.total, "frames count from the connection's start: \(frame)")
            }
        }
        let talk = try #require(cassette.interactions.first { $0.request.url.hasSuffix("/talk") })
        #expect(talk.webSocket?.frames.isEmpty == false)

        let server = try StubServer(cassette: file)
        defer { server.stop() }
        #expect(try Self.connectionLines(port: Int(server.port), path: "/lowercase-connection") == upstream, "served")
    }

    @Test func aServedRecordingAnswersWithItsOwnHeadersAndAFreshAccept() throws {
        let recorded: HTTPHeaders = ["upgrade": "websocket", "Connection": "upgrade", "Sec-WebSocket-Accept": "old=",
                                     "X-Served-By": "edge-7", "Sec-WebSocket-Protocol": "chat"]
        let answer = try WebSocketHandshake.answer(
            method: "GET", headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                                     "Sec-WebSocket-Version": "13"])
        let served = WebSocketUpgrade.servedHeaders(recorded: recorded, answer: answer)
        #expect(served.fields.map(\.name) == ["upgrade", "Connection", "Sec-WebSocket-Accept", "X-Served-By"])
        #expect(served["Connection"] == "upgrade")
        #expect(served["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
