import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `tapedeck serve` accepts connections only once everything it serves is in: a client that connects the moment the
/// port opens (a CI script polling the port, a load generator) waits for the answer instead of being told that no
/// stub matches. Found by the stored-rules A/B: wrk started on an open port got 17,836 404s in 60,638 requests while
/// a 20,000-interaction cassette was still being installed.
@Suite struct ServeStartupTests {
    /// Connects to `port` as soon as it accepts (polling every millisecond, at most 120 s), sends `GET path`, and
    /// returns the status line of the answer ("" when none came within 120 s).
    static func firstAnswer(port: UInt16, path: String) -> String {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let deadline = Date().addingTimeInterval(120)
        var fd: Int32 = -1
        while Date() < deadline {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if connected == 0 { break }
            close(fd)
            fd = -1
            usleep(1000)
        }
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while !answer.contains(0x0A), poll(&poller, 1, 120_000) > 0 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
    }

    @Test func aClientConnectingAsSoonAsThePortOpensIsAnsweredFromTheCassette() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("many.json")
        // Large enough that installing it takes a while after the port opens.
        try CassetteFile.save(Cassette(interactions: (0..<20_000).map { n in
            Interaction(request: .init(method: "GET", url: "http://127.0.0.1:4000/items/\(n)"),
                        outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("item \(n)".utf8)))))
        }), to: file)
        let port = try unusedLoopbackPort()
        let process = ChildProcess()
        process.executableURL = CLIRunner.executable
        process.arguments = ["serve", file.path, "--port", String(port)]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { process.interrupt(); process.waitUntilExit() }
        let status = await Task.detached { Self.firstAnswer(port: port, path: "/items/1") }.value
        #expect(status == "HTTP/1.1 200 OK", "the first request, sent as soon as the port accepted it")
    }
}
