import Dispatch
import Foundation
import Synchronization
import Testing
import TapedeckStubServer
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
import TapedeckCore
#endif

extension OnLoopback {
    /// Tests that wait synchronously (on a subprocess, a raw socket, a semaphore) can fill the global pool, which
    /// has one thread per core. The stub server's pacing, its recording proxy and the forward proxy must answer
    /// regardless: each runs on threads of its own. On a 2-core machine one test blocking in `poll` beside another
    /// blocking in `recv` was enough to stall the forward proxy for as long as the test waited.
    @Suite struct BlockedPoolTests {
        @Test func aDelayedStubAnswersWhileThePoolIsBlocked() throws {
            let server = try StubServer()
            defer { server.stop() }
            var late = StubResponse.text("late but here")
            late.delay = .milliseconds(50)
            server.route(.get, "/slow", response: late)
            let answer = Self.withGlobalPoolBlocked {
                Self.exchange(port: server.port, "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            }
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("late but here"), "\(answer)")
        }

        @Test func theRecordingProxyAnswersWhileThePoolIsBlocked() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let proxy = try StubServer()
            defer { proxy.stop() }
            try proxy.recordProxy(upstream: upstreams.plain.baseURL, cassette: directory.cassette(), mode: .all)
            let answer = Self.withGlobalPoolBlocked {
                Self.exchange(port: proxy.port, "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            }
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("hello from"), "\(answer)")
            #expect(proxy.recordedInteractionCount == 1)
        }

        @Test func theForwardProxyAnswersWhileThePoolIsBlocked() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let upstreams = try ProxyUpstreams()
            defer { upstreams.stop() }
            let proxy = try ForwardProxy(cassette: directory.cassette(), mode: .record(.all),
                                         configuration: upstreams.proxyConfiguration(log: Locked([])))
            defer { proxy.stop() }
            let host = ProxyUpstreams.plainHost
            let answer = Self.withGlobalPoolBlocked {
                Self.exchange(port: proxy.port, "GET http://\(host)/hello HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            }
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("hello from \(host)"), "\(answer)")
        }

        /// Runs `body` (on the calling thread) while the global pool is filled with work items that wait on a
        /// semaphore: more of them than libdispatch's monitor will add threads for when it sees workers blocked, so
        /// anything else queued there waits for the release. The blockers give up after 20 s whatever happens.
        static func withGlobalPoolBlocked<T>(_ body: () -> T) -> T {
            let blockers = max(64, 8 * ProcessInfo.processInfo.activeProcessorCount)
            let release = DispatchSemaphore(value: 0)
            let started = Atomic(0)
            for _ in 0..<blockers {
                DispatchQueue.global().async {
                    started.add(1, ordering: .relaxed)
                    _ = release.wait(timeout: .now() + 20)
                }
            }
            let deadline = ContinuousClock.now + .seconds(2)
            while started.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline { usleep(1_000) }
            defer { for _ in 0..<blockers { release.signal() } }
            return body()
        }

        /// Sends `request` to `127.0.0.1:port` and reads until the server closes or 5 s have passed.
        static func exchange(port: UInt16, _ request: String) -> String {
            let socket = ServerFaultTests.connect(to: port)
            guard socket >= 0 else { return "could not connect" }
            defer { close(socket) }
            let bytes = Array(request.utf8)
            guard send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return "could not send" }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline {
                var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                answer += buffer[..<count]
            }
            return String(decoding: answer, as: UTF8.self)
        }
    }
}
