import Foundation

/// A deterministic pseudo-random source (SplitMix64): the same seed gives the same sweep on every machine.
struct SweepRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A value in `range`.
    mutating func within(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}

/// One way of damaging an input file.
enum SweepMutation: String, CaseIterable, Sendable {
    case flipBytes = "flip-bytes"
    case truncate
    case duplicateSlice = "duplicate-slice"
    case splice
    case numericExtreme = "numeric-extreme"
    case deepNesting = "deep-nesting"
    case hugeString = "huge-string"

    /// Numbers that overflow, underflow or sit at a boundary of the integer and floating-point types.
    static let extremes = ["9223372036854775807", "-9223372036854775808", "18446744073709551616", "4294967296",
                           "2147483648", "-1", "0", "1e308", "-1e309", "1e-400", "123456789012345678901234567890", "NaN", "0x10"]

    /// `data` damaged this way; `other` is a second seed of the same kind for ``splice``.
    func apply(to data: Data, other: Data, random: inout SweepRandom) -> Data {
        var bytes = [UInt8](data)
        switch self {
        case .flipBytes:
            guard !bytes.isEmpty else { return Data([0xFF]) }
            for _ in 0..<random.within(1...8) {
                let index = random.below(bytes.count)
                bytes[index] = random.below(2) == 0 ? bytes[index] ^ UInt8(1 << random.below(8)) : UInt8(random.below(256))
            }
        case .truncate:
            bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
        case .duplicateSlice:
            guard !bytes.isEmpty else { return data }
            let start = random.below(bytes.count)
            let end = min(bytes.count, start + random.within(1...4096))
            let slice = bytes[start..<end]
            let copies = random.pick([1, 2, 50])
            let at = random.below(bytes.count + 1)
            bytes.insert(contentsOf: Array(repeating: Array(slice), count: copies).joined(), at: at)
        case .splice:
            let other = [UInt8](other)
            bytes = Array(bytes.prefix(random.below(bytes.count + 1))) + Array(other.suffix(random.below(other.count + 1)))
        case .numericExtreme:
            let numbers = Self.numberRanges(in: bytes)
            let replacement = Array(random.pick(Self.extremes).utf8)
            if numbers.isEmpty {
                bytes.insert(contentsOf: replacement, at: random.below(bytes.count + 1))
            } else {
                // Several numbers at once, from the last chosen to the first so earlier ranges stay valid.
                let chosen = Set((0..<random.within(1...3)).map { _ in random.below(numbers.count) })
                for index in chosen.sorted(by: >) { bytes.replaceSubrange(numbers[index], with: replacement) }
            }
        case .deepNesting:
            let depth = random.pick([1_000, 20_000, 200_000])
            let (open, close): (String, String) = random.pick([("[", "]"), ("{\"a\":", "}"), ("- ", ""), ("{a: ", "}")])
            let closed = random.below(2) == 0
            let nesting = String(repeating: open, count: depth) + "1" + (closed ? String(repeating: close, count: depth) : "")
            bytes.insert(contentsOf: Array(nesting.utf8), at: Self.valuePosition(in: bytes, random: &random))
        case .hugeString:
            let length = random.pick([100_000, 1_000_000, 4_000_000])
            let unit = random.pick(["x", "é", "\\u0000", "%", "\\\""])
            let huge = Array(String(repeating: unit, count: length / unit.utf8.count).utf8)
            // Inside a string when there is one (after an opening quote), else anywhere.
            let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
            let at = quotes.isEmpty ? random.below(bytes.count + 1) : random.pick(quotes) + 1
            bytes.insert(contentsOf: huge, at: at)
        }
        return Data(bytes)
    }

    /// The byte ranges of the runs of decimal digits in `bytes` (with a leading minus sign).
    static func numberRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { index += 1; continue }
            var start = index
            if start > 0, bytes[start - 1] == UInt8(ascii: "-") { start -= 1 }
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            ranges.append(start..<index)
        }
        return ranges
    }

    /// A position just after a `:` (where a JSON or YAML value starts) when there is one, else anywhere.
    static func valuePosition(in bytes: [UInt8], random: inout SweepRandom) -> Int {
        let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
        return colons.isEmpty ? random.below(bytes.count + 1) : random.pick(colons) + 1
    }
}
