import Foundation
import Testing
import TapedeckSession
import TapedeckTestSupport
import TapedeckCore

/// `AuthenticationInterceptor`: one refresh for any number of concurrent refusals, old-credential requests retried
/// without refreshing, refresh before use, failures shared by all waiters, and the refresh window.
@Suite struct AuthenticationInterceptorTests {
    struct TestToken: AuthenticationCredential, Equatable {
        var value: String
        var requiresRefresh = false
    }

    struct RefreshFailed: Error, Equatable {}

    /// Bearer tokens `v1`, `v2`, …; each refresh counts, may wait at a gate first, and may fail.
    final class CountingAuthenticator: Authenticator {
        let refreshes = Locked(0)
        let gate: @Sendable () async -> Void
        let fails: Bool

        init(fails: Bool = false, gate: @escaping @Sendable () async -> Void = {}) {
            self.fails = fails
            self.gate = gate
        }

        func apply(_ credential: TestToken, to request: inout HTTPRequest) {
            request.headers["Authorization"] = "Bearer \(credential.value)"
        }

        func refresh(_ credential: TestToken) async throws -> TestToken {
            let count = refreshes.withLock { $0 += 1; return $0 }
            await gate()
            if fails { throw RefreshFailed() }
            return TestToken(value: "v\(count + 1)")
        }

        func didRequest(_ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: (any Error)?) -> Bool {
            response.statusCode == 401
        }

        func isRequest(_ request: HTTPRequest, authenticatedWith credential: TestToken) -> Bool {
            request.headers["Authorization"] == "Bearer \(credential.value)"
        }
    }

    let clock = ManualWallClock()

    /// Waits (polling) until `counter` reaches `target`.
    static func until(_ counter: Locked<Int>, reaches target: Int) async {
        while counter.value < target { try? await Task.sleep(for: .milliseconds(1)) }
    }

    /// A server that accepts only `Bearer <valid>`. It answers the first `barrier` requests only once they have all
    /// arrived, so that every one of them was adapted (with the old credential) before any refusal starts a refresh.
    static func server(accepting valid: String, barrier: Int, arrivals: Locked<Int>, refusals: Locked<Int>)
        -> @Sendable (HTTPRequest) async -> HTTPResponse {
        { request in
            let arrival = arrivals.withLock { $0 += 1; return $0 }
            if arrival <= barrier { await until(arrivals, reaches: barrier) }
            if request.headers["Authorization"] == "Bearer \(valid)" { return RetryFixture.response(200) }
            refusals.withLock { $0 += 1 }
            return RetryFixture.response(401)
        }
    }

    @Test func twentyConcurrentRefusalsRunExactlyOneRefresh() async throws {
        let refusals = Locked(0)
        // All twenty go out with v1 together, and the refresh finishes only once all twenty have been refused, so they
        // all need it at the same time.
        let authenticator = CountingAuthenticator(gate: { await Self.until(refusals, reaches: 20) })
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: TestToken(value: "v1"), clock: clock)
        let server = Self.server(accepting: "v2", barrier: 20, arrivals: Locked(0), refusals: refusals)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let loop = InterceptorLoop(interceptor: interceptor, clock: clock)
                    return try await loop.send(RetryFixture.request()) { await server($0) }.statusCode
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(authenticator.refreshes.value == 1)
        #expect(refusals.value == 20)
        #expect(interceptor.credential == TestToken(value: "v2"))
    }

    @Test func aRequestSentWithAnOldCredentialIsRetriedWithTheNewOneWithoutRefreshing() async throws {
        let authenticator = CountingAuthenticator()
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: TestToken(value: "v1"), clock: clock)
        let old = try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext())
        let unauthorized = RequestFailure.response(RetryFixture.response(401))
        #expect(await interceptor.retry(old, dueTo: unauthorized, attempt: 0).delay == .zero)
        #expect(authenticator.refreshes.value == 1)

        // Another request that went out with v1 is refused after the refresh: retried, no second refresh.
        #expect(await interceptor.retry(old, dueTo: unauthorized, attempt: 0).delay == .zero)
        #expect(authenticator.refreshes.value == 1)
        let again = try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext(attempt: 1))
        #expect(again.headers["Authorization"] == "Bearer v2")

        // v2 itself refused: that is a new refresh.
        #expect(await interceptor.retry(again, dueTo: unauthorized, attempt: 1).retries)
        #expect(authenticator.refreshes.value == 2)
        #expect(interceptor.credential == TestToken(value: "v3"))
    }

    @Test func aCredentialThatRequiresRefreshIsRefreshedOnceBeforeUse() async throws {
        let started = Locked(0)
        let authenticator = CountingAuthenticator(gate: { await Self.until(started, reaches: 10) })
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: TestToken(value: "v1", requiresRefresh: true),
                                                    clock: clock)
        let headers = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    started.withLock { $0 += 1 }
                    return try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext()).headers["Authorization"]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(headers == Array(repeating: "Bearer v2", count: 10))
        #expect(authenticator.refreshes.value == 1)
    }

    @Test func aFailedRefreshFailsEveryWaiterWithItsError() async throws {
        let refusals = Locked(0)
        let authenticator = CountingAuthenticator(fails: true, gate: { await Self.until(refusals, reaches: 5) })
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: TestToken(value: "v1"), clock: clock)
        let server = Self.server(accepting: "v2", barrier: 5, arrivals: Locked(0), refusals: refusals)
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    do {
                        _ = try await InterceptorLoop(interceptor: interceptor, clock: clock).send(RetryFixture.request()) { await server($0) }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0 as? RefreshFailed == RefreshFailed() })
        #expect(authenticator.refreshes.value == 1)
        #expect(interceptor.credential == TestToken(value: "v1"), "a failed refresh keeps the credential")
    }

    @Test func cancellingTheRequestThatStartedTheRefreshDoesNotCancelIt() async throws {
        let open = Locked(0)
        let authenticator = CountingAuthenticator(gate: { await Self.until(open, reaches: 1) })
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: TestToken(value: "v1"), clock: clock)
        let old = try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext())
        let unauthorized = RequestFailure.response(RetryFixture.response(401))
        let first = Task { await interceptor.retry(old, dueTo: unauthorized, attempt: 0) }
        while authenticator.refreshes.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let second = Task { await interceptor.retry(old, dueTo: unauthorized, attempt: 0) }
        first.cancel()
        open.value = 1
        #expect(await second.value.retries)
        #expect(await first.value.retries)
        #expect(authenticator.refreshes.value == 1)
    }

    @Test func tooManyRefreshesWithinTheWindowFail() async throws {
        let authenticator = CountingAuthenticator()
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: TestToken(value: "v1"),
            refreshWindow: .init(interval: .seconds(30), maximumRefreshes: 2), clock: clock)
        let unauthorized = RequestFailure.response(RetryFixture.response(401))
        func refusedCurrent() async throws -> RetryDecision {
            let request = try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext())
            return await interceptor.retry(request, dueTo: unauthorized, attempt: 0)
        }
        #expect(try await refusedCurrent().retries)
        #expect(try await refusedCurrent().retries)
        guard case .doNotRetryWithError(let error) = try await refusedCurrent() else {
            Issue.record("expected excessiveRefresh")
            return
        }
        #expect(error as? AuthenticationInterceptorError == .excessiveRefresh)
        clock.advance(by: .seconds(31))
        #expect(try await refusedCurrent().retries, "the window has moved on")
        #expect(authenticator.refreshes.value == 3)
    }

    @Test func withoutACredentialNothingIsSentOrRetried() async {
        let interceptor = AuthenticationInterceptor(authenticator: CountingAuthenticator(), clock: clock)
        await #expect(throws: AuthenticationInterceptorError.missingCredential) {
            try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext())
        }
        guard case .doNotRetryWithError(let error) = await interceptor.retry(
            RetryFixture.request(), dueTo: .response(RetryFixture.response(401)), attempt: 0) else {
            Issue.record("expected missingCredential")
            return
        }
        #expect(error as? AuthenticationInterceptorError == .missingCredential)
        interceptor.credential = TestToken(value: "set later")
        #expect(interceptor.credential == TestToken(value: "set later"))
    }

    @Test func failuresThatAreNotAuthenticationAreLeftToOthers() async {
        let authenticator = CountingAuthenticator()
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: TestToken(value: "v1"), clock: clock)
        #expect(await interceptor.retry(RetryFixture.request(), dueTo: .response(RetryFixture.response(503)), attempt: 0).isDoNotRetry)
        #expect(await interceptor.retry(RetryFixture.request(), dueTo: .error(URLError(.timedOut)), attempt: 0).isDoNotRetry)
        #expect(authenticator.refreshes.value == 0)
    }

    @Test func composedWithARetryPolicyEachHandlesItsOwnFailures() async throws {
        let authenticator = CountingAuthenticator()
        let authentication = AuthenticationInterceptor(authenticator: authenticator, credential: TestToken(value: "v1"), clock: clock)
        let policy = RetryPolicy(backoff: RetryBackoff(initialDelay: .zero, jitter: .none), clock: clock)
        let loop = InterceptorLoop(interceptor: Interceptor(interceptors: [authentication, policy]), clock: clock)
        let answers = Locked([503, 401, 200])
        let response = try await loop.send(RetryFixture.request()) { _ in
            RetryFixture.response(answers.withLock { $0.removeFirst() })
        }
        #expect(response.statusCode == 200)
        #expect(authenticator.refreshes.value == 1)
    }

    @Test func errorsBridgeToAStableDomain() {
        let missing = AuthenticationInterceptorError.missingCredential as NSError
        #expect(missing.domain == "com.tapedeck.authentication-interceptor")
        #expect(missing.code == 1)
        #expect((AuthenticationInterceptorError.excessiveRefresh as NSError).code == 2)
        #expect(missing.localizedDescription.contains("no credential"))
    }
}
