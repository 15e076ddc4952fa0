import Foundation
import Testing
import Tapedeck
import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckCore

/// What NSURLSession does under AFNetworking, over every transport: a login whose session cookie arrives on a
/// redirect, an ETag revalidation answered from the cache, a Digest challenge, a `503` with `Retry-After` retried to
/// success, and two concurrent `401`s causing one token refresh. The outcomes must be the same live, while recording,
/// replayed in process and served from the cassette; waits run on a manual clock, so no backoff takes real time.
@Suite struct SessionFeatureContractTests {
    struct Token: AuthenticationCredential {
        var value: String
        var requiresRefresh: Bool { false }
    }

    final class Refresher: Authenticator {
        let refreshes = Locked(0)
        let unauthorized = Locked(0)
        func apply(_ token: Token, to request: inout HTTPRequest) { request.headers["Authorization"] = "Bearer \(token.value)" }
        func refresh(_ token: Token) async throws -> Token {
            refreshes.withLock { $0 += 1 }
            // A token service answers only once both requests have failed (bounded), so every transport sees the
            // same order: two 401s, one refresh, two retries.
            for _ in 0..<400 where unauthorized.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
            return Token(value: "fresh")
        }
        func didRequest(_ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: (any Error)?) -> Bool {
            if response.statusCode == 401 { unauthorized.withLock { $0 += 1 } }
            return response.statusCode == 401
        }
        func isRequest(_ request: HTTPRequest, authenticatedWith token: Token) -> Bool {
            request.headers["Authorization"] == "Bearer \(token.value)"
        }
    }

    /// Holds each first attempt, its token applied, until both requests have reached it (bounded), so both go out
    /// with the stale token on every transport: replayed in process, one could otherwise fail and start the refresh
    /// before the other has taken its token, which would then wait for the fresh one.
    final class BothStarted: RequestAdapter {
        let arrived = Locked(0)
        func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
            guard context.attempt == 0 else { return request }
            arrived.withLock { $0 += 1 }
            for _ in 0..<400 where arrived.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
            return request
        }
    }

    static func startServer() throws -> StubServer {
        let server = try StubServer.httpbin()
        server.route(.post, "/login") { request in
            guard String(decoding: request.body, as: UTF8.self) == "user=ada&password=lovelace" else {
                return .json(["error": "bad credentials"], status: 401)
            }
            return StubResponse(status: 302, headers: ["Location": "/home", "Set-Cookie": "session=s-5e3f; Path=/; HttpOnly"])
        }
        server.route(.get, "/home") { request in
            request.headers["Cookie"]?.contains("session=") == true ? .json(["home": "ada"]) : .json(["error": "no session"], status: 403)
        }
        let flaky = Locked(0)
        server.route(.get, "/flaky") { _ in
            flaky.withLock { $0 += 1; return $0 } < 3 ? StubResponse(status: 503, headers: ["Retry-After": "5"]) : .json(["ok": true])
        }
        server.route(.get, "/me") { request in
            request.headers["Authorization"] == "Bearer fresh" ? .json(["me": "ada"]) : .json(["error": "expired"], status: 401)
        }
        return server
    }

    /// Runs every scenario through one transport and returns what each saw, in order.
    static func run(over transport: any HTTPTransport, baseURL: URL) async -> [String] {
        func json(_ result: SessionTaskResult) -> String {
            if let error = result.error as? URLError { return "error \(error.code.rawValue)" }
            let object = result.data.flatMap { try? JSONSerialization.jsonObject(with: $0) }
            let sorted = object.flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
            return "\(result.response?.statusCode ?? 0) \(sorted.map { String(decoding: $0, as: UTF8.self) } ?? "-")"
        }
        let clock = ManualWallClock()
        let manager = SessionManager(transport: transport)
        manager.clock = clock
        manager.cache = HTTPCache(memoryCapacity: 1 << 20, clock: clock)
        var seen: [String] = []

        // 1. Log in: the session cookie comes with the redirect, and later requests use it.
        var login = HTTPRequest(method: .post, url: baseURL.appendingPathComponent("login"), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                body: .data(Data("user=ada&password=lovelace".utf8)))
        login.cachePolicy = .reloadIgnoringLocalCacheData
        seen.append(json(await manager.dataTask(with: login).run()))
        seen.append(json(await manager.dataTask(with: HTTPRequest(url: baseURL.appendingPathComponent("home"), cachePolicy: .reloadIgnoringLocalCacheData)).run()))

        // 2. An ETag revalidation answered from the cache.
        let etag = HTTPRequest(url: baseURL.appendingPathComponent("etag/v7"))
        _ = await manager.dataTask(with: etag).run()
        let revalidated = await manager.dataTask(with: etag).run()
        seen.append("\(revalidated.response?.statusCode ?? 0) etag \(revalidated.response?.headers["ETag"] ?? "-")")

        // 3. A Digest challenge answered from stored credentials.
        let digest = baseURL.appendingPathComponent("digest-auth/auth/ada/lovelace/SHA-256")
        manager.credentialStore.set(Credential(user: "ada", password: "lovelace"), for: ProtectionSpace(url: digest, realm: "me@tapedeck.test"))
        seen.append(json(await manager.dataTask(with: HTTPRequest(url: digest)).run()))

        // 4. A 503 with Retry-After, retried to success on the manual clock.
        manager.interceptor = RetryPolicy(retryLimit: 3, clock: clock)
        let flaky = manager.dataTask(with: HTTPRequest(url: baseURL.appendingPathComponent("flaky")))
        let running = Task { await flaky.run() }
        for _ in 0..<3000 where flaky.state != .completed {
            if clock.sleeperCount > 0 { clock.advance(by: .seconds(5)) } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
        seen.append(json(await running.value))

        // 5. Two concurrent 401s, one token refresh.
        let refresher = Refresher()
        let authentication = AuthenticationInterceptor(authenticator: refresher, credential: Token(value: "stale"), clock: clock)
        manager.interceptor = Interceptor(adapters: [authentication, BothStarted()], retriers: [authentication])
        let me = HTTPRequest(url: baseURL.appendingPathComponent("me"), cachePolicy: .reloadIgnoringLocalCacheData)
        async let first = manager.dataTask(with: me).run()
        async let second = manager.dataTask(with: me).run()
        let both = await [first, second]
        seen.append(both.map(json).joined(separator: " | ") + " refreshes \(refresher.refreshes.withLock { $0 })")
        return seen
    }

    static let expected = [
        #"200 {"home":"ada"}"#,
        #"200 {"home":"ada"}"#,
        #"200 etag "v7""#,
        #"200 {"authenticated":true,"user":"ada"}"#,
        #"200 {"ok":true}"#,
        #"200 {"me":"ada"} | 200 {"me":"ada"} refreshes 1"#,
    ]

    @Test(arguments: ContractTransport.allCases)
    func everyTransportGivesTheSameOutcomes(transport kind: ContractTransport) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cassette = directory.cassette("session.json")
        let server = try Self.startServer()
        defer { server.stop() }
        let seen: [String]
        switch kind {
        case .live:
            seen = await Self.run(over: server.transport(), baseURL: server.baseURL)
        case .recording, .replay, .servedCassette:
            let recorder = try openCassette(cassette, mode: .all, upstream: server.transport())
            let recorded = await Self.run(over: recorder, baseURL: server.baseURL)
            try recorder.finish()
            server.stop()
            switch kind {
            case .replay:
                let player = try openCassette(cassette, mode: .replay)
                seen = await Self.run(over: player, baseURL: server.baseURL)
                #expect(try player.finish(requireAllPlayed: true).unplayed.isEmpty)
            case .servedCassette:
                let serving = try StubServer()
                defer { serving.stop() }
                try serving.serve(cassette: cassette, origin: server.baseURL)
                seen = await Self.run(over: serving.transport(), baseURL: serving.baseURL)
                _ = try serving.finishCassette(requireAllPlayed: true)
            default:
                seen = recorded
            }
        }
        #expect(seen == Self.expected, "over \(kind.rawValue)")
    }
}
