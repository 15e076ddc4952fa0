import Foundation
import Glibc
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// Malformed requests written to a raw socket never stop the server from answering the next valid request.
    @Suite struct RobustnessTests {
        /// Generated garbage: a fixed list of known-bad shapes plus seeded random byte strings, bounded in count and size.
        static func malformedRequests() -> [Data] {
            var cases = [
                "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", " / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nxx\r\n0\r\n\r\n",
                "GET /" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\nHost: a\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X-Many: 1\r\n", count: 5000) + "\r\n",
                "\u{0}\u{1}\u{2}\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            ].map { Data($0.utf8) }
            var generator = SplitMix64(seed: 2026)
            for _ in 0..<40 {
                let length = Int(generator.next() % 512) + 1
                cases.append(Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
            }
            return cases
        }

        @Test func garbageNeverStopsTheServer() async throws {
            try await withStubServer(.init(connectionTimeout: 2)) { server in
                server.route(.get, "/ok", response: .text("ok"))
                let transport = CurlTransport()
                for (index, bytes) in Self.malformedRequests().enumerated() {
                    Self.sendRaw(bytes, port: server.port)
                    let response = try await transport.send(HTTPRequest(url: server.url("/ok"), timeoutInterval: 60))
                    #expect(response.text == "ok", "after malformed request \(index)")
                }
                let response = try await transport.send(HTTPRequest(url: server.url("/ok"), timeoutInterval: 60))
                #expect(response.text == "ok")
            }
        }

        /// Writes `bytes`, half-closes, reads whatever comes back (waiting at most 100 ms for each read), and closes.
        static func sendRaw(_ bytes: Data, port: UInt16) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else { return }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(fd, Int32(SHUT_WR))
            var buffer = [UInt8](repeating: 0, count: 4096)
            for _ in 0..<16 {
                guard recv(fd, &buffer, buffer.count, 0) > 0 else { break }
            }
        }
    }
}
