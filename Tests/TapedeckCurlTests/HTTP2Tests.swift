import Foundation
import Glibc
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckTestSupport

/// nghttpd (Debian's nghttp2-server) on 127.0.0.1, serving a temporary document root: the HTTP/2 peer these
/// tests need, since libmicrohttpd speaks HTTP/1.1 only.
final class NGHTTPDServer {
    let port: UInt16
    private let documents: TemporaryDirectory
    private let process: ChildProcess

    init(tls: Bool) throws {
        documents = try TemporaryDirectory()
        port = try unusedLoopbackPort()
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nghttpd")
        var arguments = ["--address=127.0.0.1", "--htdocs=\(documents.url.path)", "\(port)"]
        if tls {
            arguments += [Fixtures.url("localhost-key.pem").path, Fixtures.url("localhost.pem").path]
        } else {
            arguments.insert("--no-tls", at: 0)
        }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening()
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            // nghttpd does not exit on SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        documents.remove()
    }

    /// The document root nghttpd serves.
    var root: URL { documents.url }

    /// Polls for up to 5 s (bounded) until the port accepts connections.
    private func waitUntilListening() throws {
        for _ in 0..<100 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if result == 0 { return }
            usleep(50_000)
        }
        throw POSIXError(.ETIMEDOUT)
    }
}

extension Loopback {
    @Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/nghttpd"),
                    "needs nghttpd from nghttp2-server, which Tools/dev/test.sh installs"))
    struct HTTP2Tests {
        @Test func http2IsNegotiatedOverTLS() async throws {
            let server = try NGHTTPDServer(tls: true)
            defer { server.stop() }
            try Data("over h2".utf8).write(to: server.root.appendingPathComponent("hello.txt"))
            let transport = CurlTransport(configuration: .init(trustedCertificates: [.pem(Fixtures.data("ca.pem"))]))
            let url = URL(string: "https://localhost:\(server.port)/hello.txt")!
            let response = try await transport.send(HTTPRequest(url: url))
            #expect(response.statusCode == 200)
            #expect(response.head.version == "HTTP/2")
            #expect(response.metrics.httpVersion == "HTTP/2")
            #expect(response.data == Data("over h2".utf8))
        }

        @Test func http1_1CanBeForcedOnAnHTTP2Server() async throws {
            let server = try NGHTTPDServer(tls: true)
            defer { server.stop() }
            try Data("x".utf8).write(to: server.root.appendingPathComponent("x.txt"))
            let transport = CurlTransport(configuration: .init(trustedCertificates: [.pem(Fixtures.data("ca.pem"))]))
            let request = HTTPRequest(url: URL(string: "https://localhost:\(server.port)/x.txt")!, httpVersion: .http1_1)
            // nghttpd speaks only HTTP/2, so refusing to negotiate it must fail rather than silently upgrade.
            let code = await urlErrorCode { _ = try await transport.send(request) }
            #expect(code != nil)
        }

        @Test func concurrentRequestsMultiplexOnOneHTTP2Connection() async throws {
            let server = try NGHTTPDServer(tls: true)
            defer { server.stop() }
            for index in 0..<20 {
                try Data("file \(index)".utf8).write(to: server.root.appendingPathComponent("\(index).txt"))
            }
            let transport = CurlTransport(configuration: .init(trustedCertificates: [.pem(Fixtures.data("ca.pem"))]))
            // Warm one connection up so the burst can multiplex on it.
            _ = try await transport.send(HTTPRequest(url: URL(string: "https://localhost:\(server.port)/0.txt")!))
            let port = server.port
            let results = try await withThrowingTaskGroup(of: (Int, HTTPResponse).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let url = URL(string: "https://localhost:\(port)/\(index).txt")!
                        return (index, try await transport.send(HTTPRequest(url: url)))
                    }
                }
                return try await group.reduce(into: [Int: HTTPResponse]()) { $0[$1.0] = $1.1 }
            }
            #expect(results.count == 20)
            #expect(results.allSatisfy { $0.value.data == Data("file \($0.key)".utf8) })
            #expect(results.values.allSatisfy { $0.metrics.httpVersion == "HTTP/2" })
            #expect(results.values.filter { !$0.metrics.connectionReused }.count <= 1)
        }

        @Test func http2WithPriorKnowledgeOverCleartext() async throws {
            let server = try NGHTTPDServer(tls: false)
            defer { server.stop() }
            try Data("h2c".utf8).write(to: server.root.appendingPathComponent("c.txt"))
            let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(server.port)/c.txt")!, httpVersion: .http2)
            let response = try await CurlTransport().send(request)
            #expect(response.metrics.httpVersion == "HTTP/2")
            #expect(response.data == Data("h2c".utf8))
        }
    }
}
