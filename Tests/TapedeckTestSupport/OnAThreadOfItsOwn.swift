import Foundation

/// Runs `work`, which blocks (waits for a child process, reads a pipe to its end), on a thread of its own, and awaits
/// its result there instead of blocking the caller.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core: two on the CI machine. A test
/// that blocks one of them for a child process's whole run halves the pool for every other test, and two such tests
/// stall the whole suite (a CLI sweep and a 22 s cassette load together held a request past its 20 s limit in CI).
///
/// ```swift
/// let output = try await onAThreadOfItsOwn { try Data(contentsOf: pipeOrSlowFile) }
/// ```
public func onAThreadOfItsOwn<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
