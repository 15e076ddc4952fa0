import Foundation
import Testing
import TapedeckCassette
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// A cassette's stored match rules are its own wherever it replays: under every rule that can be stored, a
    /// `CassetteTransport` in process and a `StubServer` serving the same file, neither told any rule, give the same
    /// answer (or the same miss) to the same requests in the same order.
    @Suite struct StoredRulesServingParityTests {
        static let origin = "http://127.0.0.1:1"
        static let boundary = "rules-boundary"

        struct Sent: Sendable, CustomStringConvertible {
            var method: HTTPMethod
            var target: String
            var headers: HTTPHeaders = [:]
            var body = ""
            var description: String { "\(method.rawValue) \(target) \(headers.fields.map(\.value)) \(body.prefix(40))" }

            /// The headers as sent: libcurl adds `Accept: */*` to a request without one, so every request says it.
            var sentHeaders: HTTPHeaders {
                var all = headers
                if all["Accept"] == nil { all["Accept"] = "*/*" }
                return all
            }

            func request(base: String) -> HTTPRequest {
                HTTPRequest(method: method, url: URL(string: base + target)!, headers: sentHeaders, body: .data(Data(body.utf8)))
            }
        }

        static func multipart(_ name: String, _ value: String) -> String {
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n--\(boundary)--\r\n"
        }

        /// What was recorded: requests that differ in each part some rule looks at.
        static let recorded: [Sent] = [
            Sent(method: .get, target: "/items?a=1&b=2"),
            Sent(method: .get, target: "/items?a=2"),
            Sent(method: .get, target: "/other?a=1&b=2", headers: ["Accept": "text/plain"]),
            Sent(method: .post, target: "/items", headers: ["Content-Type": "application/json", "Accept": "application/json"],
                 body: #"{"x": 1, "user": "u-1"}"#),
            Sent(method: .post, target: "/items", headers: ["Content-Type": "application/json"], body: #"{"x": 2, "user": "u-1"}"#),
            Sent(method: .post, target: "/form", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "a=1&b=2"),
            Sent(method: .post, target: "/upload", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                 body: multipart("title", "one")),
            Sent(method: .post, target: "/graphql", headers: ["Content-Type": "application/json"],
                 body: #"{"query": "query Hero { hero { name } }"}"#),
            Sent(method: .post, target: "/graphql", headers: ["Content-Type": "application/json"],
                 body: #"{"query": "query Droid($id: ID!) { droid(id: $id) { name } }", "variables": {"id": "2001", "trace": "t1"}}"#),
            Sent(method: .post, target: "/rpc", headers: ["Content-Type": "application/json"],
                 body: #"{"jsonrpc":"2.0","id":1,"method":"sum","params":{"a":1,"b":2,"_meta":{"progressToken":"p1"}}}"#),
            Sent(method: .post, target: "/rpc", headers: ["Content-Type": "application/json"],
                 body: #"{"jsonrpc":"2.0","id":2,"method":"sum","params":{"a":5,"b":2}}"#),
        ]

        /// What the client sends: some recorded requests as they were, some reordered or respelled, some that only a
        /// loose rule matches, some that match nothing.
        static let sent: [Sent] = [
            Sent(method: .post, target: "/graphql", headers: ["Content-Type": "application/json"],
                 body: #"{"variables": {"trace": "t2", "id": "2001"}, "query": "query Droid($id: ID!) {\n droid(id: $id) { name }\n}"}"#),
            Sent(method: .get, target: "/items?b=2&a=1"),
            Sent(method: .post, target: "/items", headers: ["Content-Type": "application/json"], body: #"{"user": "u-9", "x": 2}"#),
            Sent(method: .post, target: "/form", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "b=2&a=1"),
            Sent(method: .post, target: "/upload", headers: ["Content-Type": "multipart/form-data; boundary=other-\(boundary)"],
                 body: multipart("title", "one").replacingOccurrences(of: boundary, with: "other-\(boundary)")),
            Sent(method: .get, target: "/other?a=1&b=2", headers: ["Accept": "text/plain"]),
            Sent(method: .post, target: "/graphql", headers: ["Content-Type": "application/json"], body: #"{"query": "query Hero {\n  hero { name }\n}"}"#),
            Sent(method: .put, target: "/items?a=1&b=2"),
            Sent(method: .get, target: "/items?a=2"),
            Sent(method: .post, target: "/items", headers: ["Content-Type": "application/json", "Accept": "application/json"],
                 body: #"{"x": 1, "user": "u-1"}"#),
            Sent(method: .post, target: "/rpc", headers: ["Content-Type": "application/json"],
                 body: #"{"id": 40, "jsonrpc": "2.0", "params": {"b": 2, "a": 5}, "method": "sum"}"#),
            Sent(method: .post, target: "/rpc", headers: ["Content-Type": "application/json"],
                 body: #"{"jsonrpc":"2.0","id":"x-41","method":"sum","params":{"a":1,"b":3,"_meta":{"progressToken":"mine"}}}"#),
        ]

        static func cassette(rules: [MatchRule]) -> Cassette {
            let interactions = recorded.enumerated().map { index, sent in
                // A JSON-RPC call is answered for its id, which a replay under the jsonrpc rule gives the caller's.
                let id = sent.body.contains("jsonrpc") ? try? CassetteJSON.parse(Data(sent.body.utf8))["id"] : nil
                let answer = id.map { #"{"jsonrpc":"2.0","id":\#(String(decoding: CassetteJSON.serialize($0), as: UTF8.self)),"result":"answer \#(index)"}"# }
                return Interaction(
                    request: .init(method: sent.method.rawValue, url: origin + sent.target, headers: sent.sentHeaders,
                                   body: CassetteBody(Data(sent.body.utf8))),
                    outcome: .response(.init(statusCode: 200, reasonPhrase: "OK",
                                             headers: ["Content-Type": answer == nil ? "text/plain" : "application/json"],
                                             body: CassetteBody(Data((answer ?? "answer \(index)").utf8)))),
                    recordedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)))
            }
            return Cassette(interactions: interactions, replayRules: ReplayRules(matching: rules))
        }

        /// An answer as both paths can show it: the recorded body, or a miss.
        static func outcome(_ response: HTTPResponse?) -> String {
            guard let response else { return "miss" }
            if response.statusCode == 404, response.headers["X-Tapedeck-Unmatched"] != nil { return "miss" }
            return "\(response.statusCode) \(String(decoding: response.data ?? Data(), as: UTF8.self))"
        }

        static let storableRules: [[MatchRule]] = [
            MatchRule.defaults, [.method, .path], [.method, .host, .path, .query], [.path, .headers("Accept")],
            [.method, .url, .body], [.method, .url, .json()], [.method, .path, .json(ignoring: ["$.user"])],
            [.method, .url, .form], [.method, .path, .multipart], [.method, .host, .path, .graphQL()],
            [.method, .path, .graphQL(ignoringVariables: ["trace"])], [.method, .url, .jsonRPC()],
            [.method, .path, .jsonRPC(ignoringParams: ["b"])],
        ]

        @Test(arguments: storableRules)
        func servedAndInProcessGiveTheSameAnswersUnderStoredRules(_ rules: [MatchRule]) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.cassette("rules.json")
            try CassetteFile.save(Self.cassette(rules: rules), to: file)

            let inProcess = try openCassette(file, mode: .replay)
            var expected: [String] = []
            for sent in Self.sent {
                expected.append(Self.outcome(try? await inProcess.send(sent.request(base: Self.origin))))
            }

            let server = try StubServer()
            defer { server.stop() }
            try server.serve(cassette: file)
            #expect(server.cassetteSummary()?.notes.allSatisfy { !$0.contains("overrides") } == true)
            let client = CurlTransport()
            var served: [String] = []
            for sent in Self.sent {
                served.append(Self.outcome(try await client.send(sent.request(base: server.baseURL.absoluteString))))
            }
            #expect(served == expected, "under \(rules.spelled)")
            #expect(expected.contains { $0 != "miss" } && expected.contains("miss"), "the requests exercise \(rules.spelled)")
        }
    }
}
