import Foundation
import TapedeckCore

/// XXH64 (xxHash, 64 bits, seed 0), fed chunk by chunk: the content hash that names sidecar files.
///
/// It reads eight bytes at a time in four independent lanes, about twenty times faster than a byte-at-a-time hash
/// such as FNV-1a, so naming a large recorded body costs little beside sending it.
///
/// ```swift
/// var hash = ContentHash()
/// hash.update(Data("abc".utf8))
/// hash.hexDigest   // "44bc2cf5ad770999"
/// ```
struct ContentHash: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
        prime1 &+ prime2, prime2, 0, 0 &- prime1
    )
    /// Bytes not yet consumed as a whole 32-byte stripe.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {}

    /// The hash of `data` in one go.
    static func of(_ data: Data) -> String {
        var hash = ContentHash()
        hash.update(data)
        return hash.hexDigest
    }

    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(32 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            offset = taken
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { consumeStripe($0, at: 0) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 32 {
            consumeStripe(bytes, at: offset)
            offset += 32
        }
        pending.append(contentsOf: bytes[offset...])
    }

    private mutating func consumeStripe(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        lanes.0 = Self.round(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
        lanes.1 = Self.round(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian)
        lanes.2 = Self.round(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self).littleEndian)
        lanes.3 = Self.round(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self).littleEndian)
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    private static func merge(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        (accumulator ^ round(0, lane)) &* prime1 &+ prime4
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// The 64-bit digest of everything fed so far.
    var digest: UInt64 {
        var hash: UInt64
        if length >= 32 {
            hash = Self.rotate(lanes.0, 1) &+ Self.rotate(lanes.1, 7) &+ Self.rotate(lanes.2, 12) &+ Self.rotate(lanes.3, 18)
            hash = Self.merge(hash, lanes.0)
            hash = Self.merge(hash, lanes.1)
            hash = Self.merge(hash, lanes.2)
            hash = Self.merge(hash, lanes.3)
        } else {
            hash = Self.prime5
        }
        hash &+= length
        pending.withUnsafeBytes { tail in
            var offset = 0
            while tail.count - offset >= 8 {
                hash ^= Self.round(0, tail.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
                hash = Self.rotate(hash, 27) &* Self.prime1 &+ Self.prime4
                offset += 8
            }
            if tail.count - offset >= 4 {
                hash ^= UInt64(tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian) &* Self.prime1
                hash = Self.rotate(hash, 23) &* Self.prime2 &+ Self.prime3
                offset += 4
            }
            while offset < tail.count {
                hash ^= UInt64(tail[offset]) &* Self.prime5
                hash = Self.rotate(hash, 11) &* Self.prime1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }

    /// ``digest`` as sixteen lowercase hexadecimal digits.
    var hexDigest: String { digest.paddedHex }
}
