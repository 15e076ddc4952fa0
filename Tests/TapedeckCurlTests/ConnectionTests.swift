import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension Loopback {
    @Suite struct ConnectionTests {
        @Test func aThousandSequentialRequestsReuseOneConnection() async throws {
            try await withStubServer { server in
                server.route(.get, "/small", response: .text("ok"))
                let transport = CurlTransport()
                var reused = 0
                for _ in 0..<1000 {
                    let response = try await transport.send(HTTPRequest(url: server.url("/small")))
                    #expect(response.data == Data("ok".utf8))
                    if response.metrics.connectionReused { reused += 1 }
                }
                #expect(reused == 999)
                #expect(server.journal.entries.count == 1000)
            }
        }

        @Test func twoHundredConcurrentRequestsAllComplete() async throws {
            try await withStubServer { server in
                let bodies = try await fetchItemsConcurrently(200, from: server, over: CurlTransport())
                #expect(bodies.count == 200)
                #expect(bodies.allSatisfy { $0.value == String($0.key) })
            }
        }

        @Test func metricsDescribeTheTransfer() async throws {
            try await withStubServer { server in
                server.route(.post, "/m", response: .text("12345"))
                let response = try await CurlTransport().send(
                    HTTPRequest(method: .post, url: server.url("/m"), body: .data(Data(count: 1000))))
                let metrics = response.metrics
                #expect(metrics.remoteAddress == "127.0.0.1")
                #expect(metrics.remotePort == Int(server.port))
                #expect(metrics.httpVersion == "HTTP/1.1")
                #expect(metrics.bytesSent > 1000)
                #expect(metrics.bytesReceived > 5)
                #expect(metrics.connect >= metrics.nameLookup)
                #expect(metrics.total >= metrics.timeToFirstByte)
                #expect(!metrics.connectionReused)
            }
        }

        @Test func aTransferOutlivesTheTransportValueThatStartedIt() async throws {
            try await withStubServer { server in
                server.route(.get, "/slow", response: StubResponse(body: .chunked(ChunkedBody(
                    data: Data(count: 5), chunkSize: 1, interval: .milliseconds(20)))))
                let events = CurlTransport().execute(HTTPRequest(url: server.url("/slow")))
                var completed: HTTPResponse?
                for try await event in events {
                    if case .completed(let response) = event { completed = response }
                }
                #expect(completed?.data == Data(count: 5))
            }
        }

        @Test func copiesOfATransportShareTheirConnections() async throws {
            try await withStubServer { server in
                server.route(.get, "/x", response: .text("x"))
                let first = CurlTransport()
                let copy = first
                let started = ContinuousClock.now
                _ = try await first.send(HTTPRequest(url: server.url("/x")))
                let second = try await copy.send(HTTPRequest(url: server.url("/x")))
                if ConnectionReuse.isPromised(since: started) { #expect(second.metrics.connectionReused) }
            }
        }
    }
}
