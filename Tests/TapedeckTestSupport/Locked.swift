import Synchronization

/// One value shared with `@Sendable` closures and other threads (a flag, a counter, the last body seen), read and
/// changed under a lock.
///
/// ```swift
/// let received = Locked(0)
/// _ = try await transport.send(request) { event in
///     if case .bodyChunk(let chunk) = event { received.withLock { $0 += chunk.count } }
/// }
/// #expect(received.value == 1000)
/// ```
public final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    /// Creates the cell holding `value`.
    public init(_ value: Value) {
        storage = Mutex(value)
    }

    /// The value; setting it replaces it.
    public var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Reads or changes the value in one step, e.g. `counter.withLock { $0 += 1 }`.
    public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock { try body(&$0) }
    }
}
