/// The four bytes a client XORs over its frames' payloads (RFC 6455 §5.3), in wire order: the first byte on the wire
/// is the most significant byte of ``rawValue``.
public struct WebSocketMaskingKey: RawRepresentable, Hashable, Sendable {
    /// The key as a big-endian number.
    public var rawValue: UInt32

    /// A key from its big-endian value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A key from four bytes in wire order.
    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        rawValue = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// A fresh key from `generator` (the RFC wants it unpredictable: the system generator by default).
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> WebSocketMaskingKey {
        WebSocketMaskingKey(rawValue: UInt32.random(in: .min ... .max, using: &generator))
    }

    /// A fresh key from the system's random number generator.
    public static func random() -> WebSocketMaskingKey {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// The four bytes in wire order.
    public var bytes: [UInt8] { [UInt8(rawValue >> 24), UInt8(rawValue >> 16 & 0xFF), UInt8(rawValue >> 8 & 0xFF), UInt8(rawValue & 0xFF)] }

    /// XORs the key over `buffer`, whose first byte is byte `offset` of the payload (masking is its own inverse, so
    /// this both masks and unmasks). Eight bytes at a time where it can.
    public func apply(to buffer: UnsafeMutableRawBufferPointer, payloadOffset offset: Int = 0) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let key = bytes
        // The key repeated over eight bytes, starting at the key byte that `offset` falls on, loaded in memory order.
        var pattern = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 { pattern[index] = key[(offset + index) & 3] }
        let word = pattern.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        var position = 0
        while position + 8 <= buffer.count {
            let masked = base.loadUnaligned(fromByteOffset: position, as: UInt64.self) ^ word
            base.storeBytes(of: masked, toByteOffset: position, as: UInt64.self)
            position += 8
        }
        while position < buffer.count {
            buffer[position] ^= pattern[position & 7]
            position += 1
        }
    }
}
