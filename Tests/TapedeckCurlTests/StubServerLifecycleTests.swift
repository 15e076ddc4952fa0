import Foundation
import Glibc
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

private func openDescriptorCount() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
}

/// One blocking HTTP/1.0 exchange over a plain socket, so the test itself starts no threads.
private func rawGet(port: UInt16, path: String) throws -> String {
    let fd = try rawConnect(port: port)
    defer { close(fd) }
    return rawExchange(fd, path: path)
}

/// A plain socket connected to 127.0.0.1:`port`.
private func rawConnect(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let code = POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED
        close(fd)
        throw POSIXError(code)
    }
    return fd
}

/// Sends an HTTP/1.0 GET of `path` on `fd` and reads the answer to the end.
private func rawExchange(_ fd: Int32, path: String) -> String {
    let request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
    _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var response = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { break }
        response.append(contentsOf: buffer[..<count])
    }
    return String(decoding: response, as: UTF8.self)
}

extension Loopback {
    @Suite struct StubServerLifecycleTests {
        @Test func startAndStopLeaveNoThreadSocketOrPortBehind() async throws {
            try await inIsolatedProcess("startAndStopLeaveNoThreadSocketOrPortBehind") { try countThreadsAndDescriptors() }
        }

        private func countThreadsAndDescriptors() throws {
            let threadsBefore = threadNames().filter { $0.hasPrefix("MHD") }.count
            let descriptorsBefore = openDescriptorCount()
            var ports: [UInt16] = []
            for cycle in 0..<5 {
                let server = try StubServer(configuration: .init(threadCount: 3))
                server.route(.get, "/ping", response: .text("pong \(cycle)"))
                #expect(try rawGet(port: server.port, path: "/ping").hasSuffix("pong \(cycle)"))
                #expect(threadNames().filter { $0.hasPrefix("MHD") }.count > threadsBefore)
                // The thread that accepts connections and spreads them over the workers is counted with them.
                #expect(threadNames().contains { $0.hasPrefix("MHD-accept") })
                ports.append(server.port)
                server.stop()
                server.stop()  // idempotent
                #expect(!server.isRunning)
            }
            // stop() returns once each thread has signalled its end; the thread itself may take a moment more to
            // leave /proc/self/task on a loaded machine (waited for up to a minute, a safety net only).
            let deadline = ContinuousClock.now + .seconds(60)
            while threadNames().filter({ $0.hasPrefix("MHD") }).count > threadsBefore, ContinuousClock.now < deadline {
                usleep(2_000)
            }
            #expect(threadNames().filter { $0.hasPrefix("MHD") }.count == threadsBefore, "\(threadNames())")
            #expect(openDescriptorCount() == descriptorsBefore)
            for port in ports {
                #expect(throws: POSIXError.self) { try rawGet(port: port, path: "/ping") }
            }
            // The port is free again: a new server can take it.
            let again = try StubServer(configuration: .init(port: ports[0]))
            #expect(again.port == ports[0])
            again.stop()
        }

        @Test func aDaemonThreadStartsWithTheFirstConnectionHandedToIt() async throws {
            try await inIsolatedProcess("aDaemonThreadStartsWithTheFirstConnectionHandedToIt") { try countDaemonThreads() }
        }

        /// A server a test starts and stops without a request runs only its accepting thread; each daemon starts
        /// with the first connection it is given.
        private func countDaemonThreads() throws {
            func daemonThreads() -> Int { threadNames().filter { $0.hasPrefix("MHD") && !$0.hasPrefix("MHD-accept") }.count }
            let before = daemonThreads()
            let server = try StubServer(configuration: .init(threadCount: 3))
            defer { server.stop() }
            server.route(.get, "/ping", response: .text("pong"))
            #expect(daemonThreads() == before)
            for expected in 1...4 {
                #expect(try rawGet(port: server.port, path: "/ping").hasSuffix("pong"))
                #expect(daemonThreads() == before + min(expected, 3), "after \(expected) connection(s): \(threadNames())")
            }
            // Named by the thread itself, so certainly by the time it has accepted a connection.
            #expect(threadNames().contains { $0.hasPrefix("MHD-accept") })
        }

        @Test func connectionsOpenedTogetherAreSpreadOverTheThreads() throws {
            let server = try StubServer(configuration: .init(threadCount: 2))
            defer { server.stop() }
            server.route(.get, "/thread") { _ in .text("\(pthread_self())") }
            // All sixteen are connected (and accepted) before any asks anything, as a load generator or a warming
            // connection pool does; each is then answered on the thread it was placed on.
            let sockets = try (0..<16).map { _ in try rawConnect(port: server.port) }
            let threads = sockets.map { fd in
                defer { close(fd) }
                return rawExchange(fd, path: "/thread").components(separatedBy: "\r\n\r\n").last ?? ""
            }
            let perThread = Dictionary(grouping: threads, by: { $0 }).mapValues(\.count)
            #expect(perThread.count == 2, "\(perThread)")
            #expect(perThread.values.allSatisfy { $0 == 8 }, "\(perThread)")
        }

        @Test func stoppingWithPacedResponsesInFlightDoesNotHang() async throws {
            let server = try StubServer()
            server.route(.get, "/drip", response: StubResponse(body: .chunked(ChunkedBody(
                data: Data(count: 1000), chunkSize: 1, interval: .seconds(1)))))
            let client = Task.detached { try? rawGet(port: server.port, path: "/drip") }
            try await Task.sleep(for: .milliseconds(200))
            server.stop()
            let partial = await client.value
            #expect(partial?.contains("200 OK") == true)
        }

        @Test func anOccupiedPortIsAClearError() throws {
            let first = try StubServer()
            defer { first.stop() }
            #expect {
                try StubServer(configuration: .init(port: first.port))
            } throws: { error in
                "\(error)".contains("127.0.0.1:\(first.port)")
            }
        }

        @Test func anInvalidHostIsAClearError() {
            #expect {
                try StubServer(configuration: .init(host: "localhost"))
            } throws: { error in
                "\(error)".contains("IPv4 or IPv6 address literal")
            }
        }

        @Test func aPortInUseIsAClearError() throws {
            let first = try StubServer()
            defer { first.stop() }
            #expect {
                try StubServer(configuration: .init(port: first.port))
            } throws: { error in
                "\(error)" == "StubServer could not listen on 127.0.0.1:\(first.port): Address already in use"
            }
        }

        @Test func ipv6LoopbackWorks() async throws {
            let server = try StubServer(configuration: .init(host: "::1"))
            defer { server.stop() }
            server.route(.get, "/six", response: .text("six"))
            #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/six")))
            #expect(response.data == Data("six".utf8))
        }
    }
}
