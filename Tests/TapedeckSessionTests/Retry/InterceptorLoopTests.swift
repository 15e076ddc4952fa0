import Foundation
import Testing
import TapedeckSession
import TapedeckTestSupport
import TapedeckCore

/// `InterceptorLoop`: adapt, send, retry, waiting on a `ManualWallClock` so that backoff takes no real time.
@Suite struct InterceptorLoopTests {
    struct Refused: Error, Equatable {}

    let clock = ManualWallClock()

    /// Moves the clock a second at a time while something sleeps on it, until `task` ends.
    func drive<T: Sendable>(_ task: Task<T, any Error>) async throws -> T {
        let done = Locked(false)
        let driver = Task {
            while !done.value {
                if clock.sleeperCount > 0 { clock.advance(by: .seconds(1)) }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        defer { done.value = true }
        let value = try await task.value
        done.value = true
        try await driver.value
        return value
    }

    /// A fake transport answering with `statuses` in turn (the last one repeatedly), noting the clock at each send.
    final class Script: Sendable {
        let statuses: [Int]
        let start: Date
        let clock: ManualWallClock
        let sent = Locked<[HTTPRequest]>([])
        let times = Locked<[Double]>([])

        init(_ statuses: [Int], clock: ManualWallClock) {
            self.statuses = statuses
            self.clock = clock
            start = clock.now
        }

        func send(_ request: HTTPRequest) -> HTTPResponse {
            times.withLock { $0.append(clock.now.timeIntervalSince(start)) }
            let count = sent.withLock { $0.append(request); return $0.count }
            return RetryFixture.response(statuses[min(count - 1, statuses.count - 1)])
        }
    }

    @Test func exponentialBackoffWaitsOnTheClock() async throws {
        let policy = RetryPolicy(retryLimit: 3, backoff: RetryBackoff(initialDelay: .seconds(1), jitter: .none), clock: clock)
        let loop = InterceptorLoop(interceptor: policy, clock: clock)
        let script = Script([503, 503, 503, 200], clock: clock)
        let response = try await drive(Task { try await loop.send(RetryFixture.request()) { script.send($0) } })
        #expect(response.statusCode == 200)
        #expect(script.times.value == [0, 1, 3, 7])
    }

    @Test func afterTheLastRetryTheFailedResponseIsDelivered() async throws {
        let policy = RetryPolicy(retryLimit: 2, backoff: RetryBackoff(initialDelay: .seconds(2), jitter: .none), clock: clock)
        let loop = InterceptorLoop(interceptor: policy, clock: clock)
        let script = Script([500], clock: clock)
        let response = try await drive(Task { try await loop.send(RetryFixture.request()) { script.send($0) } })
        #expect(response.statusCode == 500)
        #expect(script.times.value == [0, 2, 6])
    }

    @Test func jitteredBackoffUsesTheInjectedRandomSource() async throws {
        let backoff = RetryBackoff(initialDelay: .seconds(4), jitter: .equal, random: { 0.5 })
        let loop = InterceptorLoop(interceptor: RetryPolicy(retryLimit: 2, backoff: backoff, clock: clock), clock: clock)
        let script = Script([502, 502, 204], clock: clock)
        _ = try await drive(Task { try await loop.send(RetryFixture.request()) { script.send($0) } })
        #expect(script.times.value == [0, 3, 9], "4 s × 0.75, then 8 s × 0.75")
    }

    @Test func retryAfterFromTheServerSetsTheWait() async throws {
        let policy = RetryPolicy(retryLimit: 1, backoff: RetryBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(60), jitter: .none), clock: clock)
        let loop = InterceptorLoop(interceptor: policy, clock: clock)
        let start = clock.now
        let times = Locked<[Double]>([])
        let response = try await drive(Task {
            try await loop.send(RetryFixture.request()) { _ in
                let count = times.withLock { $0.append(clock.now.timeIntervalSince(start)); return $0.count }
                return count == 1 ? RetryFixture.response(503, ["Retry-After": RetryPolicyTests.httpDate(start.addingTimeInterval(42))])
                                  : RetryFixture.response(200)
            }
        })
        #expect(response.statusCode == 200)
        #expect(times.value == [0, 42])
    }

    @Test func transportErrorsAreRetriedThenThrown() async throws {
        let loop = InterceptorLoop(interceptor: RetryPolicy(retryLimit: 2, backoff: RetryBackoff(initialDelay: .seconds(1), jitter: .none), clock: clock),
                                   clock: clock)
        let sends = Locked(0)
        let task = Task {
            try await loop.send(RetryFixture.request()) { _ -> HTTPResponse in
                sends.withLock { $0 += 1 }
                throw URLError(.networkConnectionLost)
            }
        }
        await #expect(throws: URLError.self) { _ = try await drive(task) }
        #expect(sends.value == 3)
    }

    @Test func eachAttemptAdaptsTheOriginalRequestAndTheRetrierSeesWhatWasSent() async throws {
        let retried = Locked<[String?]>([])
        let interceptor = Interceptor(
            adapters: [Adapter { request, context in
                var request = request
                request.headers["X-Attempt"] = String(context.attempt)
                return request
            }],
            retriers: [Retrier { request, _, attempt in
                retried.withLock { $0.append(request.headers["X-Attempt"]) }
                return attempt < 2 ? .retry : .doNotRetry
            }])
        let script = Script([500], clock: clock)
        let response = try await InterceptorLoop(interceptor: interceptor, clock: clock, taskIdentifier: 7)
            .send(RetryFixture.request()) { script.send($0) }
        #expect(response.statusCode == 500)
        #expect(script.sent.value.map { $0.headers.values(for: "X-Attempt") } == [["0"], ["1"], ["2"]])
        #expect(retried.value == ["0", "1", "2"])
    }

    @Test func doNotRetryWithErrorIsThrown() async {
        let loop = InterceptorLoop(interceptor: Retrier { _, _, _ in .doNotRetryWithError(Refused()) }, clock: clock)
        let script = Script([401], clock: clock)
        await #expect(throws: Refused()) { try await loop.send(RetryFixture.request()) { script.send($0) } }
    }

    @Test func anAdapterErrorFailsBeforeSending() async {
        let loop = InterceptorLoop(interceptor: Adapter { _, _ in throw Refused() }, clock: clock)
        let script = Script([200], clock: clock)
        await #expect(throws: Refused()) { try await loop.send(RetryFixture.request()) { script.send($0) } }
        #expect(script.sent.value.isEmpty)
    }

    @Test func whatCountsAsAFailureIsConfigurableAndSuccessIsNotRetried() async throws {
        let always = Retrier { _, _, _ in .retry }
        let script = Script([404, 200], clock: clock)
        let lenient = InterceptorLoop(interceptor: always, clock: clock, isFailure: { $0.statusCode >= 500 })
        #expect(try await lenient.send(RetryFixture.request()) { script.send($0) }.statusCode == 404)
        #expect(try await InterceptorLoop(interceptor: always, clock: clock).send(RetryFixture.request()) { script.send($0) }.statusCode == 200)
    }

    @Test func aRetrierThatNeverStopsMeetsTheBackstop() async throws {
        let script = Script([500], clock: clock)
        let loop = InterceptorLoop(interceptor: Retrier { _, _, _ in .retry }, clock: clock, maximumAttempts: 5)
        #expect(try await loop.send(RetryFixture.request()) { script.send($0) }.statusCode == 500)
        #expect(script.sent.value.count == 5)
    }

    @Test func cancellingWhileWaitingEndsTheLoop() async throws {
        let loop = InterceptorLoop(interceptor: Retrier { _, _, _ in .retryAfter(.seconds(3600)) }, clock: clock)
        let script = Script([503], clock: clock)
        let task = Task { try await loop.send(RetryFixture.request()) { script.send($0) } }
        while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(script.sent.value.count == 1)
    }
}
