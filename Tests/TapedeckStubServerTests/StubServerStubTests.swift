import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

extension OnLoopback {
    /// Stubs through real sockets: matchers, priorities, bodies, delays, dribble, the near-miss 404 and verification.
    @Suite struct StubServerStubTests {
        let transport = CurlTransport()

        @Test func matchersOnEveryPartOfTheRequestWork() async throws {
            try await withStubServer { server in
                server.add(Stub(RequestPattern(.post, "/users/{id}").query("dryRun", .absent).header("Content-Type", .contains("json"))
                                    .body(.jsonPartial(["name": "Ada"])), response: .json(["created": true], status: 201)))
                server.add(Stub(RequestPattern(.get, .regex("/v[0-9]+/ping")), response: .text("pong")))
                var post = HTTPRequest(method: .post, url: server.url("/users/7"))
                post.headers["Content-Type"] = "application/json"
                post.body = .data(Data(#"{"name": "Ada", "age": 36}"#.utf8))
                let created = try await transport.send(post)
                #expect(created.statusCode == 201)
                #expect(created.text == #"{"created":true}"#)
                #expect(created.headers["Content-Type"] == "application/json")
                #expect(try await transport.send(HTTPRequest(url: server.url("/v12/ping"))).text == "pong")
                post.url = server.url("/users/7?dryRun=1")
                #expect(try await transport.send(post).statusCode == 404)
            }
        }

        @Test func anUnmatchedRequestGetsTheNearestStubsAndHowTheyDiffer() async throws {
            try await withStubServer { server in
                server.add(Stub(name: "create", RequestPattern(.post, "/orders").header("X-Api-Key", .present), response: .text("")))
                server.route(.get, "/health", response: .text("ok"))
                let response = try await transport.send(HTTPRequest(method: .post, url: server.url("/orders")))
                #expect(response.statusCode == 404)
                #expect(response.text.contains("No stub matches POST /orders"))
                #expect(response.text.contains(#"1. "create" POST /orders with header X-Api-Key present"#))
                #expect(response.text.contains("   - header X-Api-Key: expected present, but it is absent"))
                #expect(server.journal.unmatched.map(\.path) == ["/orders"])
            }
        }

        @Test func verificationFailuresAreReadable() async throws {
            try await withStubServer { server in
                server.route(.get, "/items/{id}", response: .text("item"))
                _ = try await transport.send(HTTPRequest(url: server.url("/items/1")))
                _ = try await transport.send(HTTPRequest(url: server.url("/items/2")))
                try server.verify(RequestPattern(.get, "/items/{id}"), count: .exactly(2))
                let error = #expect(throws: VerificationError.self) { try server.verify(RequestPattern(.delete, "/items/{id}"), count: .once) }
                #expect(error?.description.hasPrefix("Expected exactly 1 request matching DELETE /items/{id}, but received 0.\n") == true)
                #expect(error?.description.contains("  #2 GET /items/2\n     - method: expected DELETE, got GET\n") == true)
            }
        }

        @Test func bodiesFromFilesTemplatesAndEncodables() async throws {
            struct Payload: Encodable { var id: Int }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.file("body.txt")
            try Data("from a file".utf8).write(to: file)
            try await withStubServer { server in
                server.route(.get, "/file", response: .file(file, contentType: "text/plain"))
                server.route(.get, "/encoded", response: .json(encoding: Payload(id: 3)))
                server.add(Stub(RequestPattern(.get, "/hello/{name}"),
                                responder: .template(try ResponseTemplate(headers: ["X-Name": "{{path.name}}"], body: "Hello {{path.name}} ({{query.lang}})"))))
                #expect(try await transport.send(HTTPRequest(url: server.url("/file"))).text == "from a file")
                #expect(try await transport.send(HTTPRequest(url: server.url("/encoded"))).text == #"{"id":3}"#)
                let hello = try await transport.send(HTTPRequest(url: server.url("/hello/Ada?lang=en")))
                #expect(hello.text == "Hello Ada (en)")
                #expect(hello.headers["X-Name"] == "Ada")
            }
        }

        @Test func delaysAndDribbleArePaced() async throws {
            try await withStubServer { server in
                server.add(Stub(RequestPattern(.get, "/slow"), response: .text("late"), delay: .fixed(.milliseconds(200))))
                server.route(.get, "/drip", response: .text("0123456789").dribbled(bytesPerChunk: 2, interval: .milliseconds(40)))
                var started = ContinuousClock.now
                #expect(try await transport.send(HTTPRequest(url: server.url("/slow"))).text == "late")
                #expect(ContinuousClock.now - started >= .milliseconds(200))
                started = ContinuousClock.now
                var request = HTTPRequest(url: server.url("/drip"))
                request.responseBody = .stream
                let log = TransportEventLog()
                let response = try await transport.send(request, onEvent: log.handler)
                #expect(ContinuousClock.now - started >= .milliseconds(160), "5 chunks, 4 intervals of 40 ms")
                #expect(log.bodyChunks.count >= 2)
                #expect(response.headers["Transfer-Encoding"]?.contains("chunked") == true)
            }
        }

        @Test func scenarioTransitionsAreAtomicUnderConcurrentRequests() async throws {
            try await withStubServer(.init(threadCount: 2)) { server in
                server.add(Stub(RequestPattern(.post, "/claim"), response: .text("won"),
                                scenario: ScenarioStep("prize", requiredState: ScenarioStep.started, newState: "claimed")))
                server.add(Stub(RequestPattern(.post, "/claim"), priority: 9, response: .text("too late")))
                server.add(Stub(RequestPattern(.get, "/prize"), response: .text("claimed"), scenario: ScenarioStep("prize", requiredState: "claimed")))
                let answers = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<24 {
                        group.addTask { try await transport.send(HTTPRequest(method: .post, url: server.url("/claim"))).text }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(answers.filter { $0 == "won" }.count == 1)
                #expect(answers.filter { $0 == "too late" }.count == 23)
                #expect(server.scenarios.state(of: "prize") == "claimed")
                #expect(try await transport.send(HTTPRequest(url: server.url("/prize"))).text == "claimed")
                server.scenarios.resetAll()
                #expect(try await transport.send(HTTPRequest(url: server.url("/prize"))).statusCode == 404)
            }
        }

        @Test func aFixedResponseIsSharedSafelyByConcurrentConnections() async throws {
            try await withStubServer { server in
                let body = String(repeating: "0123456789", count: 200)
                let id = server.route(.get, "/shared", response: StubResponse(headers: ["X-Shared": "yes"], body: .data(Data(body.utf8))))
                let answers = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                    for _ in 0..<40 {
                        group.addTask {
                            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/shared")))
                            return (response.text, response.headers["X-Shared"])
                        }
                    }
                    return try await group.reduce(into: [(String, String?)]()) { $0.append($1) }
                }
                #expect(answers.count == 40)
                #expect(answers.allSatisfy { $0.0 == body && $0.1 == "yes" })
                server.removeStub(id: id)
                let removed = try await transport.send(HTTPRequest(url: server.url("/shared")))
                #expect(removed.statusCode == 404)
                try server.verify(RequestPattern(.get, "/shared"), count: .exactly(41))
            }
        }

        @Test func removingAndResettingStubs() async throws {
            try await withStubServer { server in
                let id = server.route(.get, "/a", response: .text("a"))
                #expect(server.stubs.map(\.id) == [id])
                #expect(server.removeStub(id: id))
                let removed = try await transport.send(HTTPRequest(url: server.url("/a")))
                #expect(removed.statusCode == 404)
                server.route(.get, "/b", response: .text("b"))
                server.reset()
                #expect(server.stubs.isEmpty)
                #expect(server.journal.entries.isEmpty)
            }
        }
    }
}
