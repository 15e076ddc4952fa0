import Foundation
import Testing
import TapedeckCore

/// `JSONValue.encoded` was `JSONEncoder`'s output with `[.sortedKeys, .withoutEscapingSlashes]`, and stub bodies,
/// mock responses and WireMock bodies are those bytes: the one writer must spell every value the same.
@Suite struct JSONWriterTests {
    static func foundationBytes(_ value: JSONValue, _ formatting: JSONEncoder.OutputFormatting) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    /// Characters that need an escape or sort unusually: quotes, backslashes, `/`, control characters, DEL,
    /// U+2028, non-ASCII (composed and decomposed), astral scalars, digits.
    static let alphabet: [String] = ["a", "B", "z", "_", "-", "0", "9", "10", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}",
                                     "\u{0C}", "\u{00}", "\u{01}", "\u{1F}", "\u{7F}", "\u{2028}", "é", "e\u{301}", "ﬁ",
                                     "Å", "\u{212B}", "😀", "中", " ", "~", "aaaaaaaaaaaa"]

    static func randomString(_ generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    static func randomNumber(_ generator: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
        case 1: Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator))
        case 2: Double.random(in: -1...1, using: &generator)
        case 3: Double.random(in: -1e300...1e300, using: &generator)
        case 4: [0.1, 0.30000000000000004, -0.0, 1e-7, .leastNonzeroMagnitude, 1e15, 9e15, 9.001e15, 9.5e15, 1e16, 1e21, 123.456e20].randomElement(using: &generator)!
        case 5: Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator) & ~(0x7FF << 52) | (UInt64.random(in: 1...2046, using: &generator) << 52))
        case 6: Double(Int.random(in: -100...100, using: &generator)) / 8
        default: Double.random(in: 1e14...1e17, using: &generator).rounded()
        }
    }

    static func randomValue(depth: Int, _ generator: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(randomNumber(&generator))
        case 3: return .string(randomString(&generator))
        case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[randomString(&generator)] = randomValue(depth: depth + 1, &generator)
            }
            return .object(members)
        }
    }

    @Test func encodedIsJSONEncodersBytes() {
        var generator = SplitMix64(seed: 0x2C0FFEE)
        for round in 0..<3000 {
            let value = Self.randomValue(depth: 0, &generator)
            let expected = Self.foundationBytes(value, [.sortedKeys, .withoutEscapingSlashes])
            #expect(value.encoded == expected, "round \(round): \(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func stylesSpellAsJSONEncoderDoes() {
        // Foundation's pretty printing is the "spaced" style: two spaces, " : ", empty containers on three lines.
        let styles: [(JSONEncoder.OutputFormatting, JSONWritingStyle)] = [
            ([.sortedKeys], JSONWritingStyle(escapesSlashes: true)),
            ([.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
             JSONWritingStyle(indent: 2, separator: " : ", expandsEmptyContainers: true)),
            ([.sortedKeys, .prettyPrinted], JSONWritingStyle(indent: 2, separator: " : ", escapesSlashes: true, expandsEmptyContainers: true)),
        ]
        var generator = SplitMix64(seed: 7)
        for round in 0..<600 {
            let value = Self.randomValue(depth: 0, &generator)
            for (formatting, style) in styles {
                let expected = Self.foundationBytes(value, formatting)
                #expect(JSONWriter.serialize(value, style: style) == expected, "round \(round): \(String(decoding: expected, as: UTF8.self))")
            }
        }
    }

    @Test func aNumberJSONCannotSpellMakesTheWholeValueNullAsJSONEncoderDid() {
        for number in [Double.infinity, -.infinity, .nan] {
            let value: JSONValue = ["a": [1, .number(number)], "b": "x"]
            #expect(value.encoded == Data("null".utf8))
            #expect(value.encoded == Self.foundationBytes(value, [.sortedKeys, .withoutEscapingSlashes]))
        }
        #expect(JSONWriter.serialize(JSONValue.array([.number(.infinity), 1])) == Data("[null,1]".utf8))
    }
}
