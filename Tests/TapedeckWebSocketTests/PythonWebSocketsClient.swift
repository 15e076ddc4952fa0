import Foundation
import Testing
import TapedeckCore
import TapedeckTestSupport
import TapedeckWebSocket

/// Python's `websockets` as a client (the peer nobody here wrote), and a raw Python socket that breaks the protocol
/// on purpose. Each run is bounded: 10 s to connect and for each answer.
enum PythonWebSocketsClient {
    /// Sends each message, reading one answer after each (waiting at most argv[2] seconds, 10 by default), then
    /// closes (waiting as long for the server's close); prints one JSON line per answer and one for the close
    /// (`{"close": code, "reason": …}`), also when the server closed first, dropped the connection (1006) or stopped
    /// answering.
    static let conversationScript = #"""
    import asyncio, json, sys
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    def show(message):
        if isinstance(message, str):
            return {"text": message}
        return {"binary": message.hex()}

    async def main():
        script = json.load(sys.stdin)
        wait = float(sys.argv[2]) if len(sys.argv) > 2 else 10
        async with connect(sys.argv[1], open_timeout=10, close_timeout=wait, ping_interval=None, max_size=None) as ws:
            try:
                for item in script:
                    await ws.send(item["text"] if "text" in item else bytes.fromhex(item["binary"]))
                    print(json.dumps(show(await asyncio.wait_for(ws.recv(), wait))), flush=True)
            except (ConnectionClosed, asyncio.TimeoutError):
                pass
            await ws.close(1000, "done")
            print(json.dumps({"close": ws.close_code, "reason": ws.close_reason}), flush=True)

    asyncio.run(main())
    """#

    /// Completes the handshake by hand, sends the hex bytes of argv[3] as they are, and prints the server's close.
    static let rawFrameScript = #"""
    import base64, json, os, socket, struct, sys
    sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET " + sys.argv[2] + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    status = int(head.split(b" ")[1])
    sock.sendall(bytes.fromhex(sys.argv[3]))
    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data
    try:
        while True:
            first, second = exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", exactly(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", exactly(8))[0]
            payload = exactly(length)
            if first & 0x0F == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                print(json.dumps({"status": status, "close": code, "reason": payload[2:].decode()}))
                break
    except EOFError:
        print(json.dumps({"status": status, "close": None, "reason": "connection ended without a close"}))
    """#

    struct Ending: Equatable, Sendable {
        var code: Int?
        var reason: String
    }

    /// Runs the conversation script against `url`, waiting at most `wait` seconds for each answer and for the close.
    static func converse(_ url: URL, sending script: [WebSocketMessage], wait: Double = 10) async throws -> ([WebSocketMessage], Ending) {
        let python = try #require(ExternalCommand.find("python3"))
        let items: [[String: String]] = script.map { message in
            switch message {
            case .text(let text): return ["text": text]
            case .binary(let data): return ["binary": data.map { String(format: "%02x", $0) }.joined()]
            }
        }
        let output = try await ExternalCommand.run(python, ["-c", conversationScript, url.absoluteString, String(wait)],
                                                   input: try JSONSerialization.data(withJSONObject: items))
        if output.standardError.contains("No module named 'websockets'") {
            try Test.cancel("Python's websockets is not installed (Tools/dev/test.sh installs it)")
        }
        var received: [WebSocketMessage] = []
        var ending: Ending?
        for line in String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let text = object["text"] as? String { received.append(.text(text)) }
            if let hex = object["binary"] as? String { received.append(.binary(Data(hexadecimal: hex))) }
            if object.keys.contains("close") { ending = Ending(code: object["close"] as? Int, reason: object["reason"] as? String ?? "") }
        }
        let ended = try #require(ending, "the websockets client printed no ending: \(output.standardError)")
        return (received, ended)
    }

    /// Sends `frame` (hex, as it goes on the wire) after a hand-made handshake; returns the status and the close.
    static func sendRaw(port: Int, path: String, frame: String) async throws -> (status: Int, ending: Ending) {
        let python = try #require(ExternalCommand.find("python3"))
        let output = try await ExternalCommand.run(python, ["-c", rawFrameScript, String(port), path, frame])
        let object = try #require(try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any],
                                  "the raw client failed: \(output.standardError)")
        return (object["status"] as? Int ?? 0, Ending(code: object["close"] as? Int, reason: object["reason"] as? String ?? ""))
    }
}

extension Data {
    /// Bytes from hexadecimal text (pairs of digits).
    init(hexadecimal text: String) {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), index < text.endIndex {
            if let byte = UInt8(text[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        self.init(bytes)
    }
}
