import Foundation
import TapedeckCore
import Testing
import TapedeckStubServer
import TapedeckTestSupport

/// A server from Python's `websockets` package (PyPI, installed by Tools/dev/test.sh), the peer nobody here wrote.
/// It listens on 127.0.0.1, prints its port, and logs every message it receives as a JSON line; it exits when its
/// standard input closes.
///
/// Paths: `/echo` echoes each message (and closes with 4000 "asked" on the text `close-me`); `/greet` sends
/// `hello SUBPROTOCOL` and waits for the close; `/ping` pings with `abc`, and says `pong received` once the pong is
/// in; `/refuse` answers 403; `/unoffered-deflate` accepts permessage-deflate in its `101` whatever the client offered;
/// a path starting `/lowercase-connection` echoes as `/echo` does after a `101` that says `Connection: upgrade`.
/// Given a TLS identity, it speaks `wss`. It sends no keepalive pings of its own, so what it sends does not depend on
/// how long a test takes.
final class PythonWebSocketsPeer: Sendable {
    static let script = #"""
    import asyncio, json, ssl, sys
    from websockets.asyncio.server import serve

    def log(path, kind, data):
        print(json.dumps({"path": path, "kind": kind, "data": data}), flush=True)

    async def handler(ws):
        path = ws.request.path
        if path == "/echo" or path.startswith("/lowercase-connection"):
            async for message in ws:
                if isinstance(message, str):
                    log(path, "text", message)
                    if message == "close-me":
                        await ws.close(4000, "asked")
                        return
                else:
                    log(path, "binary", message.hex())
                await ws.send(message)
        elif path == "/ping":
            waiter = await ws.ping(b"abc")
            await waiter
            await ws.send("pong received")
            await ws.wait_closed()
        elif path == "/greet":
            await ws.send("hello " + (ws.subprotocol or "none"))
            await ws.wait_closed()
        log(path, "closed", ws.close_code)

    def process_request(connection, request):
        if request.path == "/refuse":
            return connection.respond(403, "go away\n")

    def process_response(connection, request, response):
        if request.path == "/unoffered-deflate":
            response.headers["Sec-WebSocket-Extensions"] = "permessage-deflate"
        if request.path.startswith("/lowercase-connection"):
            del response.headers["Connection"]
            response.headers["Connection"] = "upgrade"
        return response

    def select_subprotocol(connection, offered):
        return "chat" if "chat" in offered else None

    async def main():
        context = None
        if len(sys.argv) > 2:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
        # No keepalive pings: websockets sends one every 20 s by default, and a recording that takes that long on a
        # loaded machine would hold it (and its pong), so that the frames a test expects move by two.
        async with serve(handler, "127.0.0.1", 0, process_request=process_request, process_response=process_response, ssl=context,
                         select_subprotocol=select_subprotocol, max_size=None, ping_interval=None) as server:
            port = server.sockets[0].getsockname()[1]
            print(json.dumps({"port": port}), flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

    asyncio.run(main())
    """#

    struct Unavailable: Error, CustomStringConvertible { let description: String }

    /// One logged line.
    struct Logged: Decodable, Equatable, Sendable {
        var path: String
        var kind: String
        var data: String?

        init(path: String, kind: String, data: String?) {
            self.path = path
            self.kind = kind
            self.data = data
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            kind = try container.decode(String.self, forKey: .kind)
            data = (try? container.decode(String.self, forKey: .data)) ?? (try? container.decode(Int.self, forKey: .data)).map(String.init)
        }

        enum CodingKeys: String, CodingKey { case path, kind, data }
    }

    let port: Int
    private let scheme: String
    private let process: ChildProcess
    private let input: Pipe
    private let lines: Locked<[String]>

    /// Starts the server, or cancels the test when python3 or `websockets` is missing.
    static func start(tls: TLSIdentity? = nil) async throws -> PythonWebSocketsPeer {
        guard let python = ExternalCommand.find("python3") else {
            try Test.cancel("python3 not found on PATH: the differential test against websockets did not run")
        }
        return try await PythonWebSocketsPeer(python: python, tls: tls)
    }

    private init(python: URL, tls: TLSIdentity?) async throws {
        process = ChildProcess()
        process.executableURL = python
        process.arguments = ["-c", Self.script]
        scheme = tls == nil ? "ws" : "wss"
        var keyDirectory: URL?
        // The server has read its key once it prints its port; the files go then.
        defer { if let keyDirectory { try? FileManager.default.removeItem(at: keyDirectory) } }
        if let tls {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-ws-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let certificate = directory.appendingPathComponent("cert.pem"), key = directory.appendingPathComponent("key.pem")
            try Data(tls.certificateChainPEM.utf8).write(to: certificate)
            try Data(tls.privateKeyPEM.utf8).write(to: key)
            process.arguments += [certificate.path, key.path]
            keyDirectory = directory
        }
        input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let lines = Locked<[String]>([])
        self.lines = lines
        let reader = output.fileHandleForReading
        let thread = Thread {
            var partial = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                partial.append(chunk)
                while let newline = partial.firstIndex(of: 0x0A) {
                    let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
                    partial = Data(partial[(newline + 1)...])
                    lines.withLock { $0.append(line) }
                }
            }
        }
        thread.start()
        // The first line is the port; 20 s covers a cold Python start on a loaded machine.
        var port: Int?
        for _ in 0..<2000 {
            if let first = lines.withLock({ $0.first }) {
                port = (try? JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Int])?["port"]
                break
            }
            if process.isRunning == false { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        guard let port else {
            try? input.fileHandleForWriting.close()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if message.contains("No module named 'websockets'") { try Self.cancelWithoutWebsockets() }
            throw Unavailable(description: "the websockets server did not start: \(message)")
        }
        self.port = port
    }

    private static func cancelWithoutWebsockets() throws {
        try Test.cancel("Python's websockets is not installed (Tools/dev/test.sh installs it)")
    }

    /// The URL of `path` on the server.
    func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")! }

    /// The messages logged for `path` so far, waiting (at most 10 s) until there are `count` lines for it.
    func logged(_ path: String, count: Int) async throws -> [Logged] {
        for _ in 0..<1000 {
            let logged = lines.withLock { $0 }.dropFirst().compactMap { try? JSONDecoder().decode(Logged.self, from: Data($0.utf8)) }
                .filter { $0.path == path }
            if logged.count >= count { return logged }
            try await Task.sleep(for: .milliseconds(10))
        }
        return lines.withLock { $0 }.dropFirst().compactMap { try? JSONDecoder().decode(Logged.self, from: Data($0.utf8)) }
            .filter { $0.path == path }
    }

    /// Stops the server.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
