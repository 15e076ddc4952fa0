import Foundation
import Testing
import TapedeckSession
import TapedeckTestSupport
import TapedeckCore

/// `Interceptor` composition (adapters in order, the first retry decision that is not `doNotRetry` wins) and the
/// default and closure-made interceptors.
@Suite struct InterceptorTests {
    struct Failure: Error, Equatable { var name: String }

    static func tagging(_ tag: String) -> Adapter {
        Adapter { request, context in
            var request = request
            request.headers.add(name: "X-Tag", value: "\(tag)\(context.attempt)")
            return request
        }
    }

    @Test func adaptersRunInOrderOnEachOthersOutput() async throws {
        let interceptor = Interceptor(adapters: [Self.tagging("a"), Self.tagging("b"), Self.tagging("c")])
        let adapted = try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext(attempt: 2))
        #expect(adapted.headers.values(for: "X-Tag") == ["a2", "b2", "c2"])
    }

    @Test func theFirstAdapterToThrowFailsAndTheRestDoNotRun() async {
        let ran = Locked(false)
        let interceptor = Interceptor(adapters: [
            Adapter { _, _ in throw Failure(name: "no key") },
            Adapter { request, _ in ran.value = true; return request },
        ])
        await #expect(throws: Failure(name: "no key")) {
            try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext())
        }
        #expect(!ran.value)
    }

    @Test func theFirstDecisionThatIsNotDoNotRetryWins() async {
        let asked = Locked<[String]>([])
        func retrier(_ name: String, _ decision: RetryDecision) -> Retrier {
            Retrier { _, _, _ in asked.withLock { $0.append(name) }; return decision }
        }
        let interceptor = Interceptor(retriers: [retrier("a", .doNotRetry), retrier("b", .retryAfter(.seconds(3))), retrier("c", .retry)])
        let decision = await interceptor.retry(RetryFixture.request(), dueTo: .response(RetryFixture.response(503)), attempt: 0)
        #expect(decision.delay == .seconds(3))
        #expect(asked.value == ["a", "b"])
    }

    @Test func doNotRetryWithErrorAlsoEndsTheSearch() async {
        let interceptor = Interceptor(retriers: [Retrier { _, _, _ in .doNotRetryWithError(Failure(name: "x")) }, Retrier { _, _, _ in .retry }])
        guard case .doNotRetryWithError(let error) = await interceptor.retry(RetryFixture.request(), dueTo: .error(URLError(.timedOut)), attempt: 0) else {
            Issue.record("expected doNotRetryWithError")
            return
        }
        #expect(error as? Failure == Failure(name: "x"))
    }

    @Test func withNoRetrierOrOnlyRefusalsNothingIsRetried() async {
        #expect(await Interceptor().retry(RetryFixture.request(), dueTo: .error(URLError(.timedOut)), attempt: 0).isDoNotRetry)
        let refusing = Interceptor(retriers: [Retrier { _, _, _ in .doNotRetry }, Retrier { _, _, _ in .doNotRetry }])
        #expect(await refusing.retry(RetryFixture.request(), dueTo: .error(URLError(.timedOut)), attempt: 0).isDoNotRetry)
    }

    @Test func interceptorsServeAsBothSides() async throws {
        let interceptor = Interceptor(interceptors: [Self.tagging("a"), Retrier { _, _, attempt in attempt < 1 ? .retry : .doNotRetry }])
        let adapted = try await interceptor.adapt(RetryFixture.request(), for: RequestAdapterContext())
        #expect(adapted.headers.values(for: "X-Tag") == ["a0"], "a retrier's default adapt changes nothing")
        #expect(await interceptor.retry(adapted, dueTo: .response(RetryFixture.response(500)), attempt: 0).retries)
        #expect(await interceptor.retry(adapted, dueTo: .response(RetryFixture.response(500)), attempt: 1).isDoNotRetry)
        let pair = Interceptor(adapter: Self.tagging("p"), retrier: RetryPolicy())
        #expect(pair.adapters.count == 1 && pair.retriers.count == 1)
    }

    @Test func theDefaultsOfARequestInterceptorDoNothing() async throws {
        struct Nothing: RequestInterceptor {}
        var request = RetryFixture.request()
        request.headers["X-Keep"] = "1"
        let adapted = try await Nothing().adapt(request, for: RequestAdapterContext())
        #expect(adapted.headers == request.headers)
        #expect(await Nothing().retry(request, dueTo: .error(URLError(.timedOut)), attempt: 0).isDoNotRetry)
    }

    @Test func aFailureExposesItsResponseAndError() {
        let response = RetryFixture.response(502)
        #expect(RequestFailure.response(response).response == response)
        #expect(RequestFailure.response(response).error == nil)
        #expect((RequestFailure.error(URLError(.timedOut)).error as? URLError)?.code == .timedOut)
        #expect(RequestFailure.error(URLError(.timedOut), response: response).response == response)
    }
}
