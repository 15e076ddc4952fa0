import Foundation
import Testing
import TapedeckSession

/// `RetryPolicy`: which failures are retried, how many times, and how long it waits (backoff with jitter, the cap,
/// `Retry-After` against the clock).
@Suite struct RetryPolicyTests {
    let clock = ManualWallClock()

    func policy(retryLimit: Int = 3, jitter: RetryJitter = .none, random: Double = 0.5) -> RetryPolicy {
        RetryPolicy(retryLimit: retryLimit,
                    backoff: RetryBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: jitter, random: { random }),
                    clock: clock)
    }

    @Test(arguments: [HTTPMethod.get, .head, .put, .delete, .options, .trace])
    func idempotentMethodsAreRetried(method: HTTPMethod) async {
        #expect(await policy().retry(RetryFixture.request(method), dueTo: .response(RetryFixture.response(503)), attempt: 0).retries)
    }

    @Test(arguments: [HTTPMethod.post, .patch, .connect, "PROPFIND"])
    func otherMethodsAreNot(method: HTTPMethod) async {
        #expect(await policy().retry(RetryFixture.request(method), dueTo: .response(RetryFixture.response(503)), attempt: 0).isDoNotRetry)
    }

    @Test func retryableMethodsCanBeChanged() async {
        var policy = policy()
        policy.retryableMethods.insert(.post)
        #expect(await policy.retry(RetryFixture.request(.post), dueTo: .response(RetryFixture.response(503)), attempt: 0).retries)
    }

    @Test(arguments: [(408, true), (429, true), (500, true), (502, true), (503, true), (504, true),
                      (400, false), (401, false), (403, false), (404, false), (501, false), (505, false)])
    func statusCodes(status: Int, retried: Bool) async {
        #expect(await policy().retry(RetryFixture.request(), dueTo: .response(RetryFixture.response(status)), attempt: 0).retries == retried)
    }

    @Test(arguments: [
        (URLError.Code.timedOut, true), (.networkConnectionLost, true), (.cannotConnectToHost, true), (.dnsLookupFailed, true),
        (.cannotFindHost, true), (.notConnectedToInternet, true), (.badServerResponse, true),
        (.cancelled, false), (.badURL, false), (.serverCertificateUntrusted, false), (.userCancelledAuthentication, false),
        (.unsupportedURL, false),
    ])
    func urlErrorCodes(code: URLError.Code, retried: Bool) async {
        let decision = await policy().retry(RetryFixture.request(), dueTo: .error(URLError(code)), attempt: 0)
        #expect(decision.retries == retried)
    }

    @Test func cancellationAndOtherErrorsAreNotRetried() async {
        struct Unrelated: Error {}
        var everything = policy()
        everything.retryableURLErrorCodes.insert(.cancelled)
        #expect(await everything.retry(RetryFixture.request(), dueTo: .error(URLError(.cancelled)), attempt: 0).isDoNotRetry)
        #expect(await policy().retry(RetryFixture.request(), dueTo: .error(CancellationError()), attempt: 0).isDoNotRetry)
        #expect(await policy().retry(RetryFixture.request(), dueTo: .error(Unrelated()), attempt: 0).isDoNotRetry)
        #expect(await policy().retry(RetryFixture.request(), dueTo: .error(Unrelated(), response: RetryFixture.response(502)), attempt: 0).retries,
                "a validation error carrying a retryable response")
    }

    @Test func theRetryLimitBoundsAttempts() async {
        let policy = policy(retryLimit: 2)
        let failure = RequestFailure.response(RetryFixture.response(500))
        #expect(await policy.retry(RetryFixture.request(), dueTo: failure, attempt: 0).retries)
        #expect(await policy.retry(RetryFixture.request(), dueTo: failure, attempt: 1).retries)
        #expect(await policy.retry(RetryFixture.request(), dueTo: failure, attempt: 2).isDoNotRetry)
        #expect(await RetryPolicy(retryLimit: 0).retry(RetryFixture.request(), dueTo: failure, attempt: 0).isDoNotRetry)
    }

    @Test func exponentialBackoffDoublesUpToTheCap() {
        let backoff = RetryBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: .none)
        #expect((0..<6).map(backoff.delay(forAttempt:)) == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(backoff.delay(forAttempt: Int.max) == .seconds(10))
        let tripling = RetryBackoff(initialDelay: .milliseconds(100), multiplier: 3, maximumDelay: .seconds(60), jitter: .none)
        #expect(tripling.delay(forAttempt: 2) == .milliseconds(900))
    }

    @Test func fullJitterScalesTheWholeDelay() {
        for (random, expected) in [(0.0, Duration.zero), (0.25, .seconds(1)), (0.999_999, .nanoseconds(3_999_996_000))] {
            let backoff = RetryBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: .full, random: { random })
            #expect(backoff.delay(forAttempt: 2) == expected)
        }
    }

    @Test func equalJitterKeepsHalf() {
        for (random, expected) in [(0.0, Duration.seconds(2)), (0.5, .seconds(3)), (1.0, .seconds(4))] {
            let backoff = RetryBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: .equal, random: { random })
            #expect(backoff.delay(forAttempt: 2) == expected)
        }
        let capped = RetryBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: .equal, random: { 0 })
        #expect(capped.delay(forAttempt: 20) == .seconds(5), "jitter applies to the capped delay")
    }

    @Test func theDefaultRandomSourceStaysInRange() {
        let backoff = RetryBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(10))
        for attempt in 0..<50 {
            let delay = backoff.delay(forAttempt: attempt % 5)
            #expect(delay >= .zero && delay <= .seconds(10))
        }
    }

    @Test func theDecisionCarriesTheBackoffDelay() async {
        let decision = await policy().retry(RetryFixture.request(), dueTo: .error(URLError(.timedOut)), attempt: 2)
        #expect(decision.delay == .seconds(4))
    }

    @Test func retryAfterSecondsReplacesTheBackoff() async {
        let response = RetryFixture.response(503, ["Retry-After": "7"])
        #expect(await policy(jitter: .full).retry(RetryFixture.request(), dueTo: .response(response), attempt: 0).delay == .seconds(7))
    }

    @Test func retryAfterADateIsMeasuredAgainstTheClock() async {
        let in90Seconds = clock.now.addingTimeInterval(90)
        let header = Self.httpDate(in90Seconds)
        let response = RetryFixture.response(429, ["Retry-After": header])
        var policy = policy()
        policy.backoff.maximumDelay = .seconds(120)
        #expect(await policy.retry(RetryFixture.request(), dueTo: .response(response), attempt: 0).delay == .seconds(90))
        clock.advance(by: .seconds(60))
        #expect(await policy.retry(RetryFixture.request(), dueTo: .response(response), attempt: 0).delay == .seconds(30))
        clock.advance(by: .seconds(60))
        #expect(await policy.retry(RetryFixture.request(), dueTo: .response(response), attempt: 0).delay == .zero)
    }

    @Test func aRetryAfterLongerThanTheCapIsNotWaitedFor() async {
        let response = RetryFixture.response(503, ["Retry-After": "3600"])
        #expect(await policy().retry(RetryFixture.request(), dueTo: .response(response), attempt: 0).isDoNotRetry)
    }

    @Test func retryAfterCanBeIgnoredAndGarbageIsIgnored() async {
        var ignoring = policy()
        ignoring.honorsRetryAfter = false
        let long = RetryFixture.response(503, ["Retry-After": "3600"])
        #expect(await ignoring.retry(RetryFixture.request(), dueTo: .response(long), attempt: 1).delay == .seconds(2))
        let garbage = RetryFixture.response(503, ["Retry-After": "later, maybe"])
        #expect(await policy().retry(RetryFixture.request(), dueTo: .response(garbage), attempt: 1).delay == .seconds(2))
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
