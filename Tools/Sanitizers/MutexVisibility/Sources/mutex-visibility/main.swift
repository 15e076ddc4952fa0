import Foundation
import Synchronization

// Two threads append to an array only while holding a lock: a correct program, whose final count is always
// 20,000. `mutex` guards it with Synchronization.Mutex, `nslock` with NSLock (pthread_mutex underneath). Under
// ThreadSanitizer a report for `mutex` and none for `nslock` means the sanitizer does not see Mutex's lock, so
// reports inside Mutex.withLock are not races by themselves.
final class WithMutex: Sendable { let state = Mutex<[Int]>([]) }
final class WithNSLock: @unchecked Sendable {
    let lock = NSLock()
    var state: [Int] = []
}

let useMutex = CommandLine.arguments.dropFirst().first == "mutex"
let mutexBox = WithMutex()
let lockBox = WithNSLock()
let group = DispatchGroup()
for thread in 0..<2 {
    group.enter()
    Thread.detachNewThread {
        for index in 0..<10_000 {
            let value = thread * 100_000 + index
            if useMutex {
                mutexBox.state.withLock { $0.append(value) }
            } else {
                lockBox.lock.withLock { lockBox.state.append(value) }
            }
        }
        group.leave()
    }
}
group.wait()
print("count", useMutex ? mutexBox.state.withLock { $0.count } : lockBox.lock.withLock { lockBox.state.count })
