/// SplitMix64: a small, well-mixed random number generator whose sequence depends only on its seed, for values
/// that are arbitrary but the same in every run (test data, seeded delays, values generated from a schema).
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let noise = Data((0..<1024).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed gives the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
