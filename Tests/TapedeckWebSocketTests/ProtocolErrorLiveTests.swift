import Foundation
import Testing
import TapedeckTestSupport
import TapedeckWebSocket

/// A server that breaks the protocol on purpose (a few lines of Python on a raw socket, with its own SHA-1 and base64
/// for the handshake): the client closes with the RFC's code and reason, and its messages fail with the error.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ProtocolErrorLiveTests {
    /// Accepts one connection, answers the upgrade, sends the bytes given in hex as argv[1], then prints in hex what
    /// the client sent back until it closed (or 5 s passed).
    static let script = #"""
    import base64, hashlib, socket, sys
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    print(listener.getsockname()[1], flush=True)
    connection, _ = listener.accept()
    connection.settimeout(5)
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(4096)
    key = [line.split(b":", 1)[1].strip() for line in head.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key:")][0]
    accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    connection.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + bytes.fromhex(sys.argv[1]))
    received = b""
    try:
        while True:
            chunk = connection.recv(4096)
            if not chunk:
                break
            received += chunk
    except socket.timeout:
        pass
    print(received.hex(), flush=True)
    """#

    /// Runs the server with `bytes`, connects, reads the messages to their end; returns the messages, the error they
    /// ended with, and the frames the client sent back (decoded as a server decodes them).
    func exchange(_ bytes: [UInt8], limits: WebSocketLimits = WebSocketLimits()) async throws
        -> (messages: [WebSocketMessage], error: Error?, sentBack: [WebSocketFrame])
    {
        guard let python = ExternalCommand.find("python3") else { try Test.cancel("python3 not found on PATH") }
        let process = ChildProcess()
        process.executableURL = python
        process.arguments = ["-c", Self.script, bytes.map { String(format: "%02x", $0) }.joined()]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { process.waitUntilExit() }
        let reader = output.fileHandleForReading
        var text = ""
        while !text.contains("\n") {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(Int(text.split(separator: "\n")[0]))
        let socket = try await WebSocket.connect(to: URL(string: "ws://127.0.0.1:\(port)/")!, options: WebSocketClientOptions(limits: limits))
        var messages: [WebSocketMessage] = []
        var failure: Error?
        do {
            for try await message in socket.messages { messages.append(message) }
        } catch {
            failure = error
        }
        let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        let hex = (text.split(separator: "\n").dropFirst().first.map(String.init) ?? rest.trimmingCharacters(in: .whitespacesAndNewlines))
        var echoed: [UInt8] = []
        var index = hex.startIndex
        while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < hex.endIndex {
            echoed.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        var decoder = WebSocketFrameDecoder(role: .server)
        decoder.append(echoed)
        var frames: [WebSocketFrame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return (messages, failure, frames)
    }

    func serverFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], final: Bool = true) -> [UInt8] {
        WebSocketFrameEncoder.encode(WebSocketFrame(opcode: opcode, payload: Data(payload), isFinal: final), maskingKey: nil)
    }

    @Test func invalidUTF8ClosesWith1007AfterTheMessagesBeforeIt() async throws {
        let result = try await exchange(serverFrame(.text, Array("fine".utf8)) + serverFrame(.text, [0x61, 0xFF]))
        #expect(result.messages == [.text("fine")])
        #expect(result.error as? WebSocketProtocolError == .invalidUTF8(offset: 1, inCloseReason: false))
        #expect(result.sentBack == [.close(code: .invalidPayloadData, reason: "text is not UTF-8 at byte 1")])
    }

    @Test func aMaskedServerFrameClosesWith1002() async throws {
        let masked = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Data("x".utf8)), maskingKey: .random())
        let result = try await exchange(masked)
        #expect(result.error as? WebSocketProtocolError == .maskingMismatch(expectedMasked: false))
        #expect(result.sentBack.map(\.payload.first) == [0x03])  // 0x03EA = 1002
        #expect(result.sentBack.first.map { WebSocketClose(payload: $0.payload).code } == .protocolError)
    }

    @Test func aMessageOverTheLimitClosesWith1009() async throws {
        let result = try await exchange(
            serverFrame(.binary, Array(repeating: 1, count: 100), final: false) + serverFrame(.continuation, Array(repeating: 2, count: 100)),
            limits: WebSocketLimits(maximumFrameSize: 150, maximumMessageSize: 150))
        #expect(result.error as? WebSocketProtocolError == .messageTooBig(length: 200, limit: 150))
        #expect(result.sentBack.first.map { WebSocketClose(payload: $0.payload).code } == .messageTooBig)
    }

    @Test func aPingBetweenFragmentsIsAnsweredAndAnUnknownOpcodeClosesWith1002() async throws {
        let result = try await exchange(
            serverFrame(.text, Array("Hel".utf8), final: false) + serverFrame(.ping, [1, 2, 3])
                + serverFrame(.continuation, Array("lo".utf8)) + [0x83, 0x00])
        #expect(result.messages == [.text("Hello")])
        #expect(result.error as? WebSocketProtocolError == .reservedOpcode(3))
        #expect(result.sentBack == [WebSocketFrame(opcode: .pong, payload: Data([1, 2, 3])), .close(code: .protocolError, reason: "reserved opcode 0x3")])
    }

    @Test func aServerThatVanishesEndsTheMessagesAbnormally() async throws {
        // A close frame cut off after its first byte, then the connection ends (the script closes after 5 s at most,
        // but here the client waits for more bytes; the server's end arrives when the script exits).
        let result = try await exchange(serverFrame(.text, Array("last".utf8)) + [0x88])
        #expect(result.messages == [.text("last")])
        #expect(result.error as? WebSocketError == .abnormalClosure(reason: "the server closed the connection without a close frame"))
    }
}
