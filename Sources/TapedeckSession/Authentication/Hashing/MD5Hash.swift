/// MD5 (RFC 1321), for the Digest scheme's `MD5` and `MD5-sess` algorithms, which RFC 7616 keeps for old servers.
struct MD5Hash: BlockHash, DefaultInitializable {
    static let blockSize = 64
    static let lengthFieldSize = 8
    static let isBigEndian = false

    var pending: [UInt8] = []
    var byteCount: UInt64 = 0
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)

    /// Per-step left rotations, four per round.
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

    /// `floor(abs(sin(i + 1)) * 2^32)` for i in 0..<64.
    private static let sines: [UInt32] = [
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
    ]

    mutating func compress(_ block: UnsafeRawBufferPointer) {
        var words = [UInt32](repeating: 0, count: 16)
        for index in 0..<16 { words[index] = block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self).littleEndian }
        var (a, b, c, d) = state
        for step in 0..<64 {
            let mixed: UInt32
            let wordIndex: Int
            switch step / 16 {
            case 0: mixed = (b & c) | (~b & d); wordIndex = step
            case 1: mixed = (d & b) | (~d & c); wordIndex = (5 * step + 1) % 16
            case 2: mixed = b ^ c ^ d; wordIndex = (3 * step + 5) % 16
            default: mixed = c ^ (b | ~d); wordIndex = (7 * step) % 16
            }
            let sum = a &+ mixed &+ Self.sines[step] &+ words[wordIndex]
            let shift = Self.shifts[(step / 16) * 4 + step % 4]
            (a, d, c) = (d, c, b)
            b = b &+ ((sum << shift) | (sum >> (32 - shift)))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }

    func digestBytes() -> [UInt8] {
        state.0.littleEndianBytes + state.1.littleEndianBytes + state.2.littleEndianBytes + state.3.littleEndianBytes
    }
}
