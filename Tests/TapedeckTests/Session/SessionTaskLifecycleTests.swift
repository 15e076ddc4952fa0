import Testing
@testable import Tapedeck

@Suite struct SessionTaskLifecycleTests {
    @Test func tasksStartSuspendedAndResumeOnce() {
        var lifecycle = SessionTaskLifecycle()
        #expect(lifecycle.state == .suspended)
        #expect(lifecycle.resume() == .startTransfer)
        #expect(lifecycle.resume() == .none)
        #expect(lifecycle.state == .running)
    }

    @Test func suspendPausesOnlyARunningTask() {
        var lifecycle = SessionTaskLifecycle()
        #expect(lifecycle.suspend() == .none)
        _ = lifecycle.resume()
        #expect(lifecycle.suspend() == .pauseTransfer)
        #expect(lifecycle.state == .suspended)
        #expect(lifecycle.resume() == .startTransfer)
    }

    @Test func cancelIsFinalAndCompletesOnce() {
        var lifecycle = SessionTaskLifecycle()
        _ = lifecycle.resume()
        #expect(lifecycle.cancel() == .cancelTransfer)
        #expect(lifecycle.cancel() == .none)
        #expect(lifecycle.resume() == .none)
        #expect(lifecycle.state == .canceling)
        let first = lifecycle.complete()
        let second = lifecycle.complete()
        #expect(first)
        #expect(!second)
        #expect(lifecycle.state == .completed)
    }
}
