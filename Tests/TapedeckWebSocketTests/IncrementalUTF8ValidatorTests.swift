import Foundation
import Testing
import TapedeckCore
import TapedeckWebSocket

/// The validator against the standard library's own UTF-8 decoder, on bytes split at random points.
@Suite struct IncrementalUTF8ValidatorTests {
    /// Random bytes biased towards UTF-8's interesting values: lead bytes, continuation bytes and ASCII runs.
    static func sample(_ generator: inout SplitMix64) -> [UInt8] {
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                                    0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        let count = Int.random(in: 0...24, using: &generator)
        return (0..<count).map { _ in
            Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
        }
    }

    @Test func agreesWithTheStandardLibraryOnRandomBytesSplitAnywhere() {
        var generator = SplitMix64(seed: 0x5EED_6455)
        var valid = 0
        for _ in 0..<20_000 {
            let bytes = Self.sample(&generator)
            let expected = String(validating: bytes, as: UTF8.self) != nil
            let split = Int.random(in: 0...bytes.count, using: &generator)
            var validator = IncrementalUTF8Validator()
            let failedAt = validator.consume(Array(bytes[..<split])) ?? validator.consume(Array(bytes[split...]))
            let accepted = failedAt == nil && validator.isAtCharacterBoundary
            #expect(accepted == expected, "\(bytes.map { String($0, radix: 16) }) split at \(split)")
            if let failedAt {
                // The reported offset is where the longest valid prefix ends.
                #expect(String(validating: bytes[..<failedAt], as: UTF8.self) != nil || failedAt < bytes.count)
            }
            if expected { valid += 1 }
        }
        #expect(valid > 1_000)  // the sample reaches both answers
    }

    @Test func longASCIIRunsAndEveryPlane() {
        let text = String(repeating: "plain ascii ", count: 40) + "é€𝄞" + String(repeating: "z", count: 17)
        #expect(IncrementalUTF8Validator.isValid(Array(text.utf8)))
        var bytes = Array(text.utf8)
        bytes[100] = 0x80
        var validator = IncrementalUTF8Validator()
        #expect(validator.consume(bytes) == 100)
    }

    @Test func overlongAndOutOfRangeForms() {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5]] {
            #expect(!IncrementalUTF8Validator.isValid(bad), "\(bad)")
        }
        for good: [UInt8] in [[0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]] {
            #expect(IncrementalUTF8Validator.isValid(good), "\(good)")
        }
    }
}
