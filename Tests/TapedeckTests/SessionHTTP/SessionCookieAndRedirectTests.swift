import Foundation
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

/// Cookies and redirects in the session: `GET /cookies/set?k=v` answers `{"cookies": {"k": "v"}}` as NSURLSession
/// does, each redirect hop is its own transport request (so its own cassette interaction), and the redirect rules.
@Suite struct SessionCookieAndRedirectTests {
    private func json(_ result: SessionTaskResult) -> JSONValue? { result.value as? JSONValue }

    @Test func aCookieSetOnARedirectIsSentToItsTarget() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let manager = SessionManager(transport: server.transport())
            let result = await manager.dataTask(with: HTTPRequest(url: server.url("/cookies/set?k=v"))).run()
            #expect(json(result) == ["cookies": ["k": "v"]])
            #expect(result.metrics?.redirectCount == 1)
            #expect(manager.cookieStore?.allCookies.map(\.name) == ["k"])
            // The next request carries it too; a request that opts out does not.
            #expect(json(await manager.dataTask(with: HTTPRequest(url: server.url("/cookies"))).run()) == ["cookies": ["k": "v"]])
            let optedOut = HTTPRequest(url: server.url("/cookies"), shouldHandleCookies: false)
            #expect(json(await manager.dataTask(with: optedOut).run()) == ["cookies": [:]])
            // Deleting expires it.
            #expect(json(await manager.dataTask(with: HTTPRequest(url: server.url("/cookies/delete?k"))).run()) == ["cookies": [:]])
        }
    }

    @Test func managersSharingAStoreShareCookiesAndANilStoreKeepsNone() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let first = SessionManager(transport: server.transport())
            let second = SessionManager(transport: server.transport())
            second.cookieStore = first.cookieStore
            _ = await first.dataTask(with: HTTPRequest(url: server.url("/cookies/set?shared=1"))).run()
            #expect(json(await second.dataTask(with: HTTPRequest(url: server.url("/cookies"))).run()) == ["cookies": ["shared": "1"]])
            let none = SessionManager(transport: server.transport())
            none.cookieStore = nil
            #expect(json(await none.dataTask(with: HTTPRequest(url: server.url("/cookies/set?k=v"))).run()) == ["cookies": [:]])
        }
    }

    @Test func eachHopIsRecordedAndTheChainReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url: URL = try await withStubServer { server in
            server.installHttpbinRoutes()
            let recorder = try openCassette(directory.cassette(), mode: .all, upstream: server.transport())
            let manager = SessionManager(transport: recorder)
            let result = await manager.dataTask(with: HTTPRequest(url: server.url("/cookies/set?k=v"))).run()
            #expect(json(result) == ["cookies": ["k": "v"]])
            try recorder.finish()
            return server.url("/cookies/set?k=v")
        }
        let recorded = try CassetteFile.load(directory.cassette()).interactions
        #expect(recorded.map(\.response?.statusCode) == [302, 200], "the 302 and its Set-Cookie are their own interaction")
        #expect(recorded.first?.response?.headers.contains("Set-Cookie") == true, "kept, with its value redacted")
        let player = try openCassette(directory.cassette(), mode: .replay)
        let replayed = await SessionManager(transport: player).dataTask(with: HTTPRequest(url: url)).run()
        #expect(json(replayed) == ["cookies": ["k": "v"]])
        #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
    }

    @Test func aChainRecordedAsOneInteractionStillReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let old = Interaction(
            request: .init(method: "GET", url: "http://127.0.0.1:9/redirect/2"),
            outcome: .response(.init(statusCode: 200, url: "http://127.0.0.1:9/get", headers: ["Content-Type": "application/json"],
                                     body: CassetteBody(Data(#"{"url":"http://127.0.0.1:9/get"}"#.utf8)))))
        try CassetteFile.save(Cassette(interactions: [old]), to: directory.cassette())
        let player = try openCassette(directory.cassette(), mode: .replay)
        let result = await SessionManager(transport: player).dataTask(with: HTTPRequest(url: URL(string: "http://127.0.0.1:9/redirect/2")!)).run()
        #expect(result.response?.statusCode == 200)
        #expect(result.response?.url.path == "/get")
    }

    @Test func methodsFollowNSURLSessionsRules() async throws {
        try await withStubServer { server in
            for status in [301, 302, 303, 307, 308] {
                server.route(.post, "/from/\(status)", response: StubResponse(status: status, headers: ["Location": "/to"]))
            }
            server.route(nil, "/to") { request in .json(["method": .string(request.method.rawValue), "body": .string(String(decoding: request.body, as: UTF8.self))]) }
            let manager = SessionManager(transport: server.transport())
            for (status, expected) in [(301, ["GET", ""]), (302, ["GET", ""]), (303, ["GET", ""]), (307, ["POST", "payload"]), (308, ["POST", "payload"])] {
                let request = HTTPRequest(method: .post, url: server.url("/from/\(status)"), headers: ["Content-Type": "text/plain"],
                                          body: .data(Data("payload".utf8)))
                let answer = json(await manager.dataTask(with: request).run())
                #expect(answer == ["method": .string(expected[0]), "body": .string(expected[1])], "\(status)")
            }
        }
    }

    @Test func aCrossOriginHopDropsAuthorization() async throws {
        try await withStubServer { target in
            target.route(.get, "/landing") { .json(["authorization": .string($0.headers["Authorization"] ?? "none")]) }
            try await withStubServer { origin in
                origin.route(.get, "/same", response: StubResponse(status: 302, headers: ["Location": "/echo"]))
                origin.route(.get, "/echo") { .json(["authorization": .string($0.headers["Authorization"] ?? "none")]) }
                origin.route(.get, "/away", response: StubResponse(status: 302, headers: ["Location": target.url("/landing").absoluteString]))
                let manager = SessionManager(transport: origin.transport())
                let headers: HTTPHeaders = ["Authorization": "Bearer secret"]
                #expect(json(await manager.dataTask(with: HTTPRequest(url: origin.url("/same"), headers: headers)).run()) == ["authorization": "Bearer secret"])
                #expect(json(await manager.dataTask(with: HTTPRequest(url: origin.url("/away"), headers: headers)).run()) == ["authorization": "none"])
            }
        }
    }

    @Test func redirectHandlersCanChangeOrStopAHopAndTheLimitHolds() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let manager = SessionManager(transport: server.transport())
            let events = Collected<String>()
            let stream = manager.events()
            let listener = Task {
                for await event in stream {
                    if case .taskWillPerformHTTPRedirection(_, let head, let next) = event { events.append("\(head.statusCode) \(next.url.path)") }
                    if case .taskDidComplete = event { return }
                }
            }
            let stopped = manager.dataTask(with: HTTPRequest(url: server.url("/redirect/3")))
            stopped.redirectHandler = { _, _, proposed in proposed.url.path == "/redirect/1" ? nil : proposed }
            let result = await stopped.run()
            await listener.value
            #expect(result.response?.statusCode == 302, "the task's handler stopped at the hop to /redirect/1")
            #expect(events.values == ["302 /redirect/2"])

            manager.redirectHandler = { _, _, proposed in
                var changed = proposed
                changed.url = URL(string: "/get?changed=1", relativeTo: proposed.url)!.absoluteURL
                return changed
            }
            let changed = await manager.dataTask(with: HTTPRequest(url: server.url("/redirect/2"))).run()
            #expect((json(changed)?["args"]) == ["changed": "1"])
            manager.redirectHandler = nil

            let limited = await manager.dataTask(with: HTTPRequest(url: server.url("/redirect/3"), redirectPolicy: .follow(maximum: 2))).run()
            #expect((limited.error as? URLError)?.code == .httpTooManyRedirects)
            let none = await manager.dataTask(with: HTTPRequest(url: server.url("/redirect/3"), redirectPolicy: .none)).run()
            #expect(none.response?.statusCode == 302)
        }
    }

    @Test func redirectRulesArePure() {
        let request = HTTPRequest(method: .post, url: URL(string: "https://a.example/x")!, headers: ["Content-Type": "text/plain", "Authorization": "t"],
                                  body: .data(Data("b".utf8)))
        func head(_ status: Int, _ location: String?) -> HTTPResponseHead {
            HTTPResponseHead(statusCode: status, headers: location.map { ["Location": $0] } ?? [:], url: request.url)
        }
        #expect(Redirection.nextRequest(after: head(302, "y"), from: request)?.url.absoluteString == "https://a.example/y")
        #expect(Redirection.nextRequest(after: head(302, "y"), from: request)?.headers["Content-Type"] == nil)
        #expect(Redirection.nextRequest(after: head(307, "//b.example/z"), from: request)?.headers["Authorization"] == nil)
        #expect(Redirection.nextRequest(after: head(307, "/z"), from: request)?.headers["Authorization"] == "t")
        #expect(Redirection.nextRequest(after: head(300, "/z"), from: request) == nil)
        #expect(Redirection.nextRequest(after: head(302, nil), from: request) == nil)
        #expect(Redirection.nextRequest(after: head(302, "ftp://a.example/f"), from: request) == nil)
        #expect(Redirection.isSameOrigin(URL(string: "https://a.example/")!, URL(string: "https://A.example:443/p")!))
    }
}
