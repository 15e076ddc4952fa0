/// A DEFLATE (RFC 1951) decoder, small and dependency-free, after Mark Adler's `puff`: enough to store recorded
/// `gzip`/`deflate` bodies decoded. Returns `nil` for malformed input.
struct Inflate {
    private let input: [UInt8]
    private var position = 0
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0
    private var output: [UInt8] = []

    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init?(lengths: ArraySlice<Int>) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1..<16 {
                left <<= 1
                left -= counts[length]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The decoded bytes of a raw DEFLATE stream, and how many input bytes it used.
    static func decode(_ bytes: [UInt8]) -> (output: [UInt8], consumed: Int)? {
        var inflater = Inflate(input: bytes)
        guard inflater.run() else { return nil }
        return (inflater.output, inflater.position)
    }

    private init(input: [UInt8]) { self.input = input }

    private mutating func bits(_ count: Int) -> Int? {
        while bitCount < count {
            guard position < input.count else { return nil }
            bitBuffer |= UInt32(input[position]) << UInt32(bitCount)
            position += 1
            bitCount += 8
        }
        let value = Int(bitBuffer & ((1 << UInt32(count)) - 1))
        bitBuffer >>= UInt32(count)
        bitCount -= count
        return value
    }

    private mutating func run() -> Bool {
        while true {
            guard let last = bits(1), let type = bits(2) else { return false }
            let ok: Bool
            switch type {
            case 0: ok = stored()
            case 1: ok = fixed()
            case 2: ok = dynamic()
            default: ok = false
            }
            if !ok { return false }
            if last == 1 { return true }
        }
    }

    private mutating func stored() -> Bool {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { return false }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard length == ~complement & 0xFFFF, position + 4 + length <= input.count else { return false }
        output.append(contentsOf: input[(position + 4)..<(position + 4 + length)])
        position += 4 + length
        return true
    }

    private mutating func decodeSymbol(_ huffman: Huffman) -> Int? {
        var code = 0, first = 0, index = 0
        for length in 1..<16 {
            guard let bit = bits(1) else { return nil }
            code |= bit
            let count = huffman.counts[length]
            if code - count < first { return huffman.symbols[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        return nil
    }

    private mutating func codes(_ lengths: Huffman, _ distances: Huffman) -> Bool {
        while true {
            guard var symbol = decodeSymbol(lengths) else { return false }
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return true
            } else {
                symbol -= 257
                guard symbol < 29, let extra = bits(Self.lengthExtra[symbol]) else { return false }
                let length = Self.lengthBase[symbol] + extra
                guard let distanceSymbol = decodeSymbol(distances), distanceSymbol < 30,
                      let distanceExtra = bits(Self.distanceExtra[distanceSymbol]) else { return false }
                let distance = Self.distanceBase[distanceSymbol] + distanceExtra
                guard distance <= output.count else { return false }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    private mutating func fixed() -> Bool {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        guard let literal = Huffman(lengths: lengths[...]), let distance = Huffman(lengths: [Int](repeating: 5, count: 30)[...]) else { return false }
        return codes(literal, distance)
    }

    private mutating func dynamic() -> Bool {
        guard let literalCount = bits(5).map({ $0 + 257 }), let distanceCount = bits(5).map({ $0 + 1 }),
              let codeCount = bits(4).map({ $0 + 4 }), literalCount <= 286, distanceCount <= 30 else { return false }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeCount {
            guard let length = bits(3) else { return false }
            codeLengths[order[index]] = length
        }
        guard let lengthCode = Huffman(lengths: codeLengths[...]) else { return false }
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            guard let symbol = decodeSymbol(lengthCode) else { return false }
            switch symbol {
            case 0..<16: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last, let repeatCount = bits(2) else { return false }
                lengths += [Int](repeating: previous, count: 3 + repeatCount)
            case 17:
                guard let repeatCount = bits(3) else { return false }
                lengths += [Int](repeating: 0, count: 3 + repeatCount)
            default:
                guard let repeatCount = bits(7) else { return false }
                lengths += [Int](repeating: 0, count: 11 + repeatCount)
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] != 0,
              let literal = Huffman(lengths: lengths[0..<literalCount]),
              let distance = Huffman(lengths: lengths[literalCount...]) else { return false }
        return codes(literal, distance)
    }
}
