/// A hash function of the Merkle–Damgård family (MD5, SHA-256, SHA-512): bytes are taken a block at a time, and
/// the last block is padded with `0x80`, zeros and the message's length in bits. The Digest scheme's few hashes are
/// computed here so that the session layer needs no cryptography library; none of them protects a secret at rest.
///
/// ```swift
/// var hash = SHA256Hash()
/// hash.update(Array("abc".utf8))
/// let hex = hash.finalize().lowercaseHex   // "ba7816bf…"
/// ```
protocol BlockHash {
    /// Bytes per block: 64 or 128.
    static var blockSize: Int { get }
    /// Bytes the length field takes at the end of the padding: 8 or 16.
    static var lengthFieldSize: Int { get }
    /// Whether the length (and every word) is big-endian (SHA) rather than little-endian (MD5).
    static var isBigEndian: Bool { get }

    /// Bytes not yet making up a whole block.
    var pending: [UInt8] { get set }
    /// Bytes taken so far.
    var byteCount: UInt64 { get set }

    /// Folds one whole block into the state.
    mutating func compress(_ block: UnsafeRawBufferPointer)
    /// The state as the digest's bytes, after the last block.
    func digestBytes() -> [UInt8]
}

extension BlockHash {
    /// Takes more of the message.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        var bytes = Array(bytes)
        byteCount &+= UInt64(bytes.count)
        if !pending.isEmpty {
            let taken = min(Self.blockSize - pending.count, bytes.count)
            pending.append(contentsOf: bytes[..<taken])
            bytes.removeFirst(taken)
            guard pending.count == Self.blockSize else { return }
            let block = pending
            block.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = bytes.count - bytes.count % Self.blockSize
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < whole {
                compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Self.blockSize]))
                offset += Self.blockSize
            }
        }
        pending.append(contentsOf: bytes[whole...])
    }

    /// Pads the message and returns its digest; the hash is spent afterwards.
    mutating func finalize() -> [UInt8] {
        let bitCount = byteCount &* 8
        var tail = pending
        tail.append(0x80)
        while (tail.count + Self.lengthFieldSize) % Self.blockSize != 0 { tail.append(0) }
        var length = [UInt8](repeating: 0, count: Self.lengthFieldSize)
        for index in 0..<8 {
            let byte = UInt8(truncatingIfNeeded: bitCount >> (8 * UInt64(index)))
            if Self.isBigEndian { length[Self.lengthFieldSize - 1 - index] = byte } else { length[index] = byte }
        }
        tail.append(contentsOf: length)
        tail.withUnsafeBytes { buffer in
            for offset in stride(from: 0, to: buffer.count, by: Self.blockSize) {
                compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Self.blockSize]))
            }
        }
        pending.removeAll()
        return digestBytes()
    }

    /// The digest of `bytes` in one call.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] where Self: DefaultInitializable {
        var hash = Self()
        hash.update(bytes)
        return hash.finalize()
    }
}

/// A hash that starts from its algorithm's initial state.
protocol DefaultInitializable { init() }

extension FixedWidthInteger {
    /// The integer's bytes, most significant first.
    var bigEndianBytes: [UInt8] {
        (0..<Self.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: self >> ($0 * 8)) }
    }

    /// The integer's bytes, least significant first.
    var littleEndianBytes: [UInt8] {
        (0..<Self.bitWidth / 8).map { UInt8(truncatingIfNeeded: self >> ($0 * 8)) }
    }
}
