import Foundation
import TapedeckCore
import Testing

@Suite struct LockedTests {
    /// Two threads (not tasks: real preemption) add to one counter under the lock; none of the 2 × 20,000 updates
    /// may be lost. Under ThreadSanitizer (CI's thread step) this also fails on a report if the sanitizer cannot
    /// see the lock, as it cannot see `Synchronization.Mutex`'s.
    @Test func updatesFromTwoThreadsAreNeverLost() {
        let counter = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(counter.value == 40_000)
    }

    @Test func copiesShareOneValue() {
        let original = Locked<[String]>([])
        let copy = original
        copy.withLock { $0.append("GET /v1/me") }
        original.value.append("GET /v1/you")
        #expect(copy.value == ["GET /v1/me", "GET /v1/you"])
    }

    @Test func anErrorThrownInsideLeavesTheLockFree() {
        struct Refused: Error, Equatable {}
        let state = Locked(1)
        #expect(throws: Refused.self) {
            try state.withLock { value throws(Refused) in
                value = 2
                throw Refused()
            }
        }
        #expect(state.withLock { $0 } == 2)
    }

    @Test func theValueIsReleasedWithTheLastCopy() {
        final class Tracked: Sendable {}
        weak var watched: Tracked?
        do {
            let tracked = Tracked()
            watched = tracked
            let lock = Locked(tracked)
            #expect(lock.value === tracked)
        }
        #expect(watched == nil)
    }
}
