import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The stub server under connection pressure: idle connections and a slow-loris client do not stop it answering
/// others, idle connections are closed after the configured timeout, and the connection limit holds.
@Suite(.serialized) struct ServerFaultTests {
    /// A TCP connection to `127.0.0.1:port` that sends nothing, or `-1`.
    static func connect(to port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Whether the server closed `fd` within `seconds` (a read returns end of file or an error).
    static func isClosed(_ fd: Int32, within seconds: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }

    /// Room for a few thousand descriptors: both ends of every test connection live in this process.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = min(limit.rlim_max, 8192)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    @Test func idleConnectionsAndASlowLorisDoNotStopOtherClients() async throws {
        Self.raiseDescriptorLimit()
        try await withStubServer(StubServer.Configuration(connectionTimeout: 2)) { server in
            server.route(.get, "/ok", response: .text("ok"))
            let idle = (0..<1000).map { _ in Self.connect(to: server.port) }
            defer { for fd in idle where fd >= 0 { close(fd) } }
            #expect(idle.allSatisfy { $0 >= 0 }, "1,000 idle connections opened")
            // A slow-loris client: its request head never ends, one byte of it every 50 ms (each within the idle
            // timeout) until the other clients are done, so a server that waited for it would answer nobody else.
            let loris = Self.connect(to: server.port)
            defer { close(loris) }
            // A thread of its own, not a task: its bytes keep coming however busy the cooperative threads are.
            let othersDone = Locked(false), sent = Locked(0)
            let dribble = JoinableThread(name: "loris") {
                for byte in Array("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "z"), count: 4000) {
                    guard !othersDone.withLock({ $0 }) else { break }
                    var value = byte
                    guard send(loris, &value, 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
                    sent.withLock { $0 += 1 }
                    usleep(50_000)
                }
            }
            // No time bound decides: the loris is still mid-request when the others are answered, and an answer held
            // up by it would never come (the generous timeout only ends a stuck run).
            let transport = server.transport()
            for _ in 0..<20 {
                let response = try await transport.send(HTTPRequest(url: server.url("/ok"), timeoutInterval: 120))
                #expect(response.statusCode == 200)
            }
            var lorisState = pollfd(fd: loris, events: Int16(POLLIN), revents: 0)
            #expect(poll(&lorisState, 1, 0) == 0, "the slow client was still sending its request, unanswered, while the others were answered")
            othersDone.withLock { $0 = true }
            dribble.join()
            #expect(sent.withLock { $0 } < 4000 + 36, "the slow client's request never ended")
            // With nothing more from them, the idle connections and the slow client are closed after the timeout.
            #expect(Self.isClosed(idle[0], within: 120) && Self.isClosed(idle[999], within: 120), "idle connections are closed")
            #expect(Self.isClosed(loris, within: 120), "the slow-loris connection is closed")
        }
    }

    @Test func theConnectionLimitHoldsAndFreedRoomIsReused() async throws {
        try await withStubServer(StubServer.Configuration(threadCount: 1, connectionTimeout: 30, connectionLimit: 8)) { server in
            server.route(.get, "/ok", response: .text("ok"))
            var held = (0..<8).map { _ in Self.connect(to: server.port) }
            // Let the acceptor hand every connection to the daemon before the one over the limit arrives.
            try await Task.sleep(for: .milliseconds(200))
            let over = Self.connect(to: server.port)
            defer { if over >= 0 { close(over) } }
            #expect(Self.isClosed(over, within: 5), "a connection over the limit is closed at once")
            for fd in held where fd >= 0 { close(fd) }
            held.removeAll()
            var answered = false
            for _ in 0..<50 where !answered {
                answered = (try? await server.transport().send(HTTPRequest(url: server.url("/ok"), timeoutInterval: 2)))?.statusCode == 200
                if !answered { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(answered, "once connections close, new ones are served")
        }
    }
}
