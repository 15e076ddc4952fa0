import Testing
@testable import TapedeckCurl

/// The transfer's bookkeeping without libcurl: the idle timeout and which progress events are due, driven by
/// made-up monotonic times.
@Suite struct TransferStateMachineTests {
    private static let ms: UInt64 = 1_000_000

    @Test func theIdleTimeoutCountsFromTheLastByteMoved() {
        let ms = Self.ms
        var state = CurlTransfer.StateMachine(idleTimeout: 100 * ms, now: 1_000 * ms)
        #expect(!state.isIdle(at: 1_100 * ms), "exactly the timeout is not past it")
        #expect(state.isIdle(at: 1_101 * ms))
        #expect(state.nanosecondsUntilIdle(at: 1_040 * ms) == 60 * ms)
        state.moved(at: 1_090 * ms)
        #expect(!state.isIdle(at: 1_101 * ms))
        #expect(state.nanosecondsUntilIdle(at: 1_101 * ms) == 89 * ms)
        #expect(state.nanosecondsUntilIdle(at: 5_000 * ms) == 0)
        #expect(!state.isIdle(at: 1_000 * ms), "a clock read before the last activity is never idle")
    }

    /// One download progress check: bytes received so far, whether bytes were just written, and when (ms).
    private typealias DownloadStep = (received: Int64, afterWrite: Bool, atMs: UInt64)

    private static func downloadDecisions(_ steps: [DownloadStep], state: inout CurlTransfer.StateMachine) -> [Bool] {
        steps.map { state.downloadProgressDue(received: $0.received, afterWrite: $0.afterWrite, at: $0.atMs * ms) }
    }

    @Test func theFirstBytesOfABurstGoOutAtOnceAndTheRestAtMostEveryTenMilliseconds() {
        var state = CurlTransfer.StateMachine(idleTimeout: 1_000 * Self.ms, now: 0)
        let decisions = Self.downloadDecisions([
            (100, true, 50),    // the first bytes after a quiet spell: at once
            (200, true, 51),    // 1 ms into the burst
            (300, true, 55),
            (400, true, 60),    // 10 ms after the last event
            (500, true, 61),
            (500, false, 65),   // held back; the progress callback tries before 10 ms have passed
            (500, false, 71),   // and after: the held-back bytes go out with no new write
            (500, false, 200),  // no news, no event
            (600, true, 75),    // a write after 14 ms with none (the last was at 61) starts a burst
            (700, true, 80),
        ], state: &state)
        #expect(decisions == [true, false, false, true, false, false, true, false, true, false])
        #expect(state.reportedDownload == 600)
    }

    @Test func uploadProgressComesOnTheCallbacksTurnsWhenThereIsNews() {
        let ms = Self.ms
        var state = CurlTransfer.StateMachine(idleTimeout: 1_000 * ms, now: 0)
        let turns = [20, 25, 30].map { state.progressTurnDue(at: $0 * ms) }
        #expect(turns == [true, false, true])
        // Nothing to say before a byte or a total; a known total is news at zero, once.
        let uploads = [(0, 0), (0, 1_000), (0, 1_000), (512, 1_000)].map { state.uploadProgressDue(uploaded: $0.0, total: $0.1) }
        #expect(uploads == [false, true, false, true])
        #expect(state.reportedUpload == 512)
    }

    @Test func theEndIsReportedInEachDirectionThatHasNotSeenIt() {
        var state = CurlTransfer.StateMachine(idleTimeout: 1_000 * Self.ms, now: 0)
        let atStart = state.finalProgressDue(uploaded: 0, downloaded: 0)
        #expect(!atStart.upload && atStart.download, "an empty body still ends the download at 0 bytes")
        _ = state.uploadProgressDue(uploaded: 1_000, total: 1_000)
        _ = state.downloadProgressDue(received: 4_096, afterWrite: true, at: 100 * Self.ms)
        let seen = state.finalProgressDue(uploaded: 1_000, downloaded: 4_096)
        #expect(!seen.upload && !seen.download)
        let more = state.finalProgressDue(uploaded: 1_000, downloaded: 8_192)
        #expect(!more.upload && more.download)
    }
}
