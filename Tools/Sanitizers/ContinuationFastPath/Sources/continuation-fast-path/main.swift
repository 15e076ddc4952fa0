import Foundation

// A thread makes an object and resumes a continuation with it; the task then reads the object's fields: a correct
// program. `early` lets the thread resume before the task suspends (the continuation's body sleeps), `late` after
// (the thread sleeps before it resumes).
// `early-locked` is `early` with the object handed over through a lock, as TapedeckCore's `Locked.wait` does.
// Under ThreadSanitizer, reports for `early` and none for `late` or `early-locked` mean the concurrency runtime
// gives the sanitizer no ordering on its fast path (resume before await), so such reports are not races by
// themselves, and a lock taken after the await restores the ordering it needs.
final class Made: @unchecked Sendable {
    let name: String
    let number: Int
    init(_ number: Int) {
        name = "made \(number)"
        self.number = number
    }
}

let mode = CommandLine.arguments.dropFirst().first ?? "early"
let handOff = NSLock()
nonisolated(unsafe) var handedOver: Made?

func make(_ number: Int) async -> Made {
    let made = await withCheckedContinuation { (continuation: CheckedContinuation<Made, Never>) in
        Thread {
            let made = Made(number)
            if mode == "early-locked" { handOff.withLock { handedOver = made } }
            if mode == "late" { usleep(20_000) }
            continuation.resume(returning: made)
        }.start()
        if mode != "late" { usleep(20_000) }
    }
    if mode == "early-locked" { return handOff.withLock { handedOver! } }
    return made
}

let total = await Task.detached {
    var total = 0
    for number in 0..<20 {
        let made = await make(number)
        total += made.number + made.name.count
    }
    return total
}.value
print("total", total)
