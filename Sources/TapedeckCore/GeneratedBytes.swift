import Foundation

/// The deterministic byte pattern of generated bodies (the stub server's `StubBody.generated(length:)`, the body of a
/// ``TransportFault/partialBody(sent:declared:)``): byte `i` is `i % 251`.
package enum GeneratedBytes {
    /// The pattern repeated enough times to fill a read with one copy from any phase.
    private static let pattern: [UInt8] = (0..<(251 * 262)).map { UInt8($0 % 251) }

    package static func fill(_ buffer: UnsafeMutableRawBufferPointer, from position: Int64) {
        var written = 0
        var phase = Int(position % 251)
        pattern.withUnsafeBytes { source in
            while written < buffer.count {
                let count = min(buffer.count - written, source.count - phase)
                (buffer.baseAddress! + written).copyMemory(from: source.baseAddress! + phase, byteCount: count)
                written += count
                phase = (phase + count) % 251
            }
        }
    }

    /// `count` bytes of the pattern starting at byte `offset`.
    package static func data(from offset: Int64 = 0, count: Int) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { fill($0, from: offset) }
        return data
    }
}
