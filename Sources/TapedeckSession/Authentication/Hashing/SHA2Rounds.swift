/// The compression function SHA-256 and SHA-512 share (FIPS 180-4 §6.2.2, §6.4.2): the same steps on 32- or
/// 64-bit words, told apart by their rotation amounts, round constants and round count.
struct SHA2Rounds<Word: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable {
    /// Rotations of Σ0 and Σ1; rotations then shift of σ0 and σ1.
    var sum0: (Word, Word, Word)
    var sum1: (Word, Word, Word)
    var sigma0: (Word, Word, Word)
    var sigma1: (Word, Word, Word)
    /// One constant per round.
    var constants: [Word]

    /// Folds one block (16 words) into `state` (8 words).
    func compress(_ block: UnsafeRawBufferPointer, into state: inout [Word]) {
        let width = Word.bitWidth / 8
        var schedule = [Word](repeating: 0, count: constants.count)
        for index in 0..<16 { schedule[index] = Word(bigEndian: block.loadUnaligned(fromByteOffset: index * width, as: Word.self)) }
        for index in 16..<constants.count {
            let early = schedule[index - 15], late = schedule[index - 2]
            let small0 = early.rotatedRight(sigma0.0) ^ early.rotatedRight(sigma0.1) ^ (early >> sigma0.2)
            let small1 = late.rotatedRight(sigma1.0) ^ late.rotatedRight(sigma1.1) ^ (late >> sigma1.2)
            schedule[index] = schedule[index - 16] &+ small0 &+ schedule[index - 7] &+ small1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for round in 0..<constants.count {
            let big1 = e.rotatedRight(sum1.0) ^ e.rotatedRight(sum1.1) ^ e.rotatedRight(sum1.2)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ big1 &+ choice &+ constants[round] &+ schedule[round]
            let big0 = a.rotatedRight(sum0.0) ^ a.rotatedRight(sum0.1) ^ a.rotatedRight(sum0.2)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ big0 &+ majority)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] = state[index] &+ value }
    }
}

extension FixedWidthInteger where Self: UnsignedInteger {
    func rotatedRight(_ count: Self) -> Self { (self >> count) | (self << (Self(Self.bitWidth) - count)) }
}
