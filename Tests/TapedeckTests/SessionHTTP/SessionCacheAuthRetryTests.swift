import Foundation
import Testing
import Tapedeck
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport
import TapedeckCore

/// The HTTP cache, authentication challenges and retry in the session, over the stub server, on a manual clock so
/// freshness and backoff take no wall-clock time.
@Suite struct SessionCacheAuthRetryTests {
    private func json(_ result: SessionTaskResult) -> JSONValue? { result.value as? JSONValue }

    @Test func aFreshResponseIsAnsweredWithoutTheTransportUntilItIsStale() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let clock = ManualWallClock()
            let manager = SessionManager(transport: server.transport())
            manager.cache = HTTPCache(memoryCapacity: 1 << 20, clock: clock)
            let url = server.url("/cache/60")
            for _ in 0..<3 { #expect(await manager.dataTask(with: HTTPRequest(url: url)).run().response?.statusCode == 200) }
            #expect(server.journal.entries.count == 1, "two answers came from the cache")
            clock.advance(by: .seconds(61))
            _ = await manager.dataTask(with: HTTPRequest(url: url)).run()
            #expect(server.journal.entries.count == 2, "stale after max-age: loaded again")
            _ = await manager.dataTask(with: HTTPRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)).run()
            #expect(server.journal.entries.count == 3)
        }
    }

    @Test func anETagRevalidationIsAnsweredFromTheCache() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let manager = SessionManager(transport: server.transport())
            manager.cache = HTTPCache(memoryCapacity: 1 << 20, clock: ManualWallClock())
            let url = server.url("/etag/v1")
            let first = await manager.dataTask(with: HTTPRequest(url: url)).run()
            let second = await manager.dataTask(with: HTTPRequest(url: url)).run()
            #expect(second.response?.statusCode == 200, "the 304 is answered with the stored 200")
            #expect(second.data == first.data)
            let sent = server.journal.entries.map { $0.headers["If-None-Match"] }
            #expect(sent == [nil, "\"v1\""], "the second request was conditional")
        }
    }

    @Test func returnCacheDataDontLoadFailsWhenNothingIsStored() async throws {
        try await withStubServer { server in
            let manager = SessionManager(transport: server.transport())
            manager.cache = HTTPCache(memoryCapacity: 1 << 20)
            let result = await manager.dataTask(with: HTTPRequest(url: server.url("/x"), cachePolicy: .returnCacheDataDontLoad)).run()
            #expect((result.error as? URLError)?.code == .resourceUnavailable)
            #expect(server.journal.entries.isEmpty)
        }
    }

    @Test(arguments: ["MD5", "SHA-256"])
    func aDigestChallengeIsAnsweredFromStoredCredentials(algorithm: String) async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let manager = SessionManager(transport: server.transport())
            let url = server.url("/digest-auth/auth/ada/lovelace/\(algorithm)")
            manager.credentialStore.set(Credential(user: "ada", password: "lovelace"),
                                        for: ProtectionSpace(url: url, realm: "me@tapedeck.test"))
            let result = await manager.dataTask(with: HTTPRequest(url: url)).run()
            #expect(json(result) == ["authenticated": true, "user": "ada"])
            #expect(server.journal.entries.map(\.headers).map { $0.contains("Authorization") } == [false, true])
        }
    }

    @Test func aWrongPasswordIsNotRetriedForeverAndTheHandlersDecide() async throws {
        try await withStubServer { server in
            server.installHttpbinRoutes()
            let manager = SessionManager(transport: server.transport())
            let asked = Locked(0)
            manager.authenticationChallengeHandler = { _ in
                asked.withLock { $0 += 1 }
                return .useCredential(Credential(user: "ada", password: "wrong"))
            }
            let wrong = await manager.dataTask(with: HTTPRequest(url: server.url("/basic-auth/ada/lovelace"))).run()
            #expect(wrong.response?.statusCode == 401, "delivered after the refused credential")
            #expect(server.journal.entries.count == 2)
            #expect(asked.withLock { $0 } <= 2)

            let task = manager.dataTask(with: HTTPRequest(url: server.url("/basic-auth/ada/lovelace")))
            task.authenticationChallengeHandler = { _ in .useCredential(Credential(user: "ada", password: "lovelace")) }
            #expect(json(await task.run()) == ["authenticated": true, "user": "ada"], "the task's own handler wins")

            manager.authenticationChallengeHandler = { _ in .cancelAuthenticationChallenge }
            let cancelled = await manager.dataTask(with: HTTPRequest(url: server.url("/basic-auth/ada/lovelace"))).run()
            #expect((cancelled.error as? URLError)?.code == .userCancelledAuthentication)
        }
    }

    @Test func a503WithRetryAfterIsRetriedToSuccessOnTheClock() async throws {
        try await withStubServer { server in
            let calls = Locked(0)
            server.route(.get, "/flaky") { _ in
                let call = calls.withLock { $0 += 1; return $0 }
                return call < 3 ? StubResponse(status: 503, headers: ["Retry-After": "20"]) : .json(["ok": true])
            }
            let clock = ManualWallClock()
            let manager = SessionManager(transport: server.transport())
            manager.clock = clock
            manager.interceptor = RetryPolicy(retryLimit: 3, clock: clock)
            let retries = Collected<Int>()
            let stream = manager.events()
            let listener = Task {
                for await event in stream {
                    if case .taskWillRetry(_, let attempt, _) = event { retries.append(attempt) }
                    if case .taskDidComplete = event { return }
                }
            }
            let task = manager.dataTask(with: HTTPRequest(url: server.url("/flaky")))
            let running = Task { await task.run() }
            // Each Retry-After wait ends when the clock is moved; bounded, in case no wait ever comes.
            for _ in 0..<2000 where task.state != .completed {
                if clock.sleeperCount > 0 { clock.advance(by: .seconds(20)) } else { try await Task.sleep(for: .milliseconds(2)) }
            }
            let result = await running.value
            await listener.value
            #expect(json(result) == ["ok": true])
            #expect(calls.withLock { $0 } == 3)
            #expect(retries.values == [1, 2])
        }
    }

    @Test func twoConcurrent401sCauseOneTokenRefresh() async throws {
        struct Token: AuthenticationCredential { var value: String; var requiresRefresh: Bool { false } }
        final class Refresher: Authenticator {
            let refreshes = Locked(0)
            func apply(_ token: Token, to request: inout HTTPRequest) { request.headers["Authorization"] = "Bearer \(token.value)" }
            func refresh(_ token: Token) async throws -> Token {
                refreshes.withLock { $0 += 1 }
                try await Task.sleep(for: .milliseconds(50))
                return Token(value: "fresh")
            }
            func didRequest(_ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: (any Error)?) -> Bool {
                response.statusCode == 401
            }
            func isRequest(_ request: HTTPRequest, authenticatedWith token: Token) -> Bool {
                request.headers["Authorization"] == "Bearer \(token.value)"
            }
        }
        try await withStubServer { server in
            server.route(.get, "/me") { request in
                request.headers["Authorization"] == "Bearer fresh" ? .json(["me": true]) : .json(["error": "expired"], status: 401)
            }
            let refresher = Refresher()
            let manager = SessionManager(transport: server.transport())
            manager.interceptor = AuthenticationInterceptor(authenticator: refresher, credential: Token(value: "stale"))
            async let first = manager.dataTask(with: HTTPRequest(url: server.url("/me"))).run()
            async let second = manager.dataTask(with: HTTPRequest(url: server.url("/me"))).run()
            let results = await [first, second]
            #expect(results.map { json($0) } == [["me": true], ["me": true]])
            #expect(refresher.refreshes.withLock { $0 } == 1)
        }
    }
}
