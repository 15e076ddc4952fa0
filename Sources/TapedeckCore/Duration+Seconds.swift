/// `Duration` as the seconds count that cassettes, transfer metrics and `TimeInterval` APIs use.
extension Duration {
    /// The duration in seconds, as a `Double` (what cassettes, metrics and `TimeInterval` APIs use).
    ///
    /// ```swift
    /// Duration.milliseconds(1500).inSeconds   // 1.5
    /// ```
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
