import TapedeckCore

/// Values appended from `@Sendable` closures and other threads, for a test to read back in the order they arrived.
///
/// ```swift
/// let fractions = Collected<Double>()
/// _ = try await manager.upload(request, progress: { fractions.append($0.fractionCompleted) })
/// #expect(fractions.values.last == 1.0)
/// ```
public final class Collected<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    /// Creates an empty collection.
    public init() {}

    /// Adds `value` at the end.
    public func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    /// Every value so far, in order.
    public var values: [Value] {
        storage.withLock { $0 }
    }
}
