/// How far an upload or download has come.
public struct TransferProgress: Hashable, Sendable {
    /// Bytes transferred so far.
    public var completed: Int64
    /// The total, when known.
    public var total: Int64?

    /// Creates a progress value.
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total
    }

    /// `completed / total` in `0...1`, or `nil` when the total is unknown. An empty transfer is complete.
    public var fractionCompleted: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, Double(completed) / Double(total))
    }
}
