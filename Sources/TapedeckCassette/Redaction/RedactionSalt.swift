import TapedeckCore

/// The per-cassette key that ``StandIn``s are made with: 128 random bits, stored in the cassette (`"redaction":
/// {"salt": "<32 hex digits>"}`) so that recordings added later give a secret the stand-in it already has.
///
/// ```swift
/// var cassette = Cassette()
/// cassette.redactionSalt = RedactionSalt.random()
/// ```
public struct RedactionSalt: Hashable, Sendable, CustomStringConvertible {
    /// The two 64-bit halves, used as the SipHash key.
    let key: (UInt64, UInt64)

    /// A salt from its 32 hex digits, or `nil` when `text` is not exactly that.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 32 else { return nil }
        var halves: [UInt64] = [0, 0]
        for (index, byte) in bytes.enumerated() {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            halves[index / 16] = halves[index / 16] << 4 | UInt64(digit)
        }
        key = (halves[0], halves[1])
    }

    private init(key: (UInt64, UInt64)) {
        self.key = key
    }

    /// A new salt from the system's random number generator.
    public static func random() -> RedactionSalt {
        var generator = SystemRandomNumberGenerator()
        return RedactionSalt(key: (generator.next(), generator.next()))
    }

    /// The 32 lower-case hex digits, as the cassette stores them.
    public var description: String { key.0.paddedHex + key.1.paddedHex }

    /// Two salts are equal when their 128-bit keys are.
    public static func == (lhs: RedactionSalt, rhs: RedactionSalt) -> Bool { lhs.key == rhs.key }

    /// Hashes the 128-bit key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key.0)
        hasher.combine(key.1)
    }
}

/// SipHash-2-4 (Aumasson and Bernstein): a keyed 64-bit hash that cannot be inverted or predicted without the key.
enum SipHash24 {
    static func hash(_ bytes: UnsafeRawBufferPointer, key: (UInt64, UInt64)) -> UInt64 {
        var state = State(key: key)
        let whole = bytes.count / 8 * 8
        var offset = 0
        while offset < whole {
            state.absorb(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var last = UInt64(truncatingIfNeeded: bytes.count) << 56
        for index in whole..<bytes.count { last |= UInt64(bytes[index]) << UInt64((index - whole) * 8) }
        state.absorb(last)
        return state.finish()
    }

    /// The four words of the state, as a value the optimizer keeps in registers (nested functions capturing local
    /// variables boxed them).
    private struct State {
        var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64

        init(key: (UInt64, UInt64)) {
            v0 = key.0 ^ 0x736F_6D65_7073_6575
            v1 = key.1 ^ 0x646F_7261_6E64_6F6D
            v2 = key.0 ^ 0x6C79_6765_6E65_7261
            v3 = key.1 ^ 0x7465_6462_7974_6573
        }

        @inline(__always) mutating func round() {
            v0 &+= v1; v1 = rotate(v1, 13); v1 ^= v0; v0 = rotate(v0, 32)
            v2 &+= v3; v3 = rotate(v3, 16); v3 ^= v2
            v0 &+= v3; v3 = rotate(v3, 21); v3 ^= v0
            v2 &+= v1; v1 = rotate(v1, 17); v1 ^= v2; v2 = rotate(v2, 32)
        }

        @inline(__always) mutating func absorb(_ block: UInt64) {
            v3 ^= block
            round(); round()
            v0 ^= block
        }

        @inline(__always) mutating func finish() -> UInt64 {
            v2 ^= 0xFF
            round(); round(); round(); round()
            return v0 ^ v1 ^ v2 ^ v3
        }

        @inline(__always) private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
            value << count | value >> (64 - count)
        }
    }
}
