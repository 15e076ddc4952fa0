import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Requests the fuzzer (Tools/Fuzz, target `stub-server-http`) found to crash the server; their raw bytes are also
/// in Tools/Fuzz/Regressions/stub-server-http, which every fuzz run replays first.
@Suite struct QueryItemsTests {
    @Test func splitsAndDecodesAQuery() {
        let items = request(.get, "/", query: "a=1&b&c=&d=x%20y+z&e=a=b").queryItems
        #expect(items.map(\.name) == ["a", "b", "c", "d", "e"])
        #expect(items.map(\.value) == ["1", nil, "", "x y+z", "a=b"])
        #expect(request(.get, "/", query: "").queryItems.isEmpty)
        #expect(request(.get, "/").queryItems.isEmpty)
    }

    /// URLComponents' `percentEncodedQuery` setter traps on these; a query is whatever bytes a client sent.
    @Test func keepsCharactersAndEscapesAQueryMayNotContain() {
        let items = request(.get, "/", query: "q=abc&page=2 HTTP/1.1\rGET /x?q=a b&bad=%zz&\u{7F}").queryItems
        #expect(items.map(\.name) == ["q", "page", "bad", "\u{7F}"])
        #expect(items.map(\.value) == ["abc", "2 HTTP/1.1\rGET /x?q=a b", "%zz", nil])
    }
}

extension OnLoopback {
    @Suite struct FuzzRegressionTests {
        /// Found by the fuzzer: a request line with a carriage return inside reached query matching with a query
        /// URLComponents refuses, and the trap took the whole test process down.
        static let queryWithControlCharacters = Data(
            ("GET /search?q=abc&page=2 HTTP/1.1\rGET /search?q=abc&page=2 HTTP/1.1\r\n"
             + "Host: h\r\nAccept: application/json\r\nX-Key: k\r\n\r\n").utf8)

        @Test func aQueryWithControlCharactersIsAnsweredAndTheServerKeepsServing() async throws {
            try await withStubServer(.init(connectionTimeout: 2)) { server in
                server.add(Stub(RequestPattern(.get, "/search").query("q", .contains("a")).query("page", .present),
                                response: .text("found")))
                server.route(.get, "/ok", response: .text("ok"))
                RobustnessTests.sendRaw(Self.queryWithControlCharacters, port: server.port)
                let response = try await CurlTransport().send(HTTPRequest(url: server.url("/ok"), timeoutInterval: 60))
                #expect(response.text == "ok")
                #expect(server.journal.entries.contains { $0.path == "/search" })
            }
        }
    }
}
