extension Sequence<UInt8> {
    /// The bytes as lowercase hex, two digits each, without `String(format:)` (digests of every request use it).
    ///
    /// ```swift
    /// [0xde, 0xad, 0x01].lowercaseHex   // "dead01"
    /// ```
    package var lowercaseHex: String {
        let digits: StaticString = "0123456789abcdef"
        var text: [UInt8] = []
        // A digest is a Sequence with no count to go by: room for SHA-256's 64 digits at least.
        text.reserveCapacity(Swift.max(underestimatedCount, 32) * 2)
        for byte in self {
            text.append(digits.utf8Start[Int(byte >> 4)])
            text.append(digits.utf8Start[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension FixedWidthInteger where Self: UnsignedInteger {
    /// The value as lowercase hex, zero-padded to the type's width: a `UInt64` always gives 16 digits.
    ///
    /// ```swift
    /// UInt64(255).paddedHex   // "00000000000000ff"
    /// ```
    package var paddedHex: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: Self.bitWidth / 4 - digits.count) + digits
    }
}
