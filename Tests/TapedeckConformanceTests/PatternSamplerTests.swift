import Foundation
import Testing
@testable import TapedeckConformance
import TapedeckCore

/// `PatternSampler`'s strings match their patterns (checked with NSRegularExpression, the validator's engine), and
/// what it does not sample it refuses.
@Suite struct PatternSamplerTests {
    static let patterns = [
        "^[A-Z]{3}-[0-9]{4}$", #"^\d{4}-\d{2}-\d{2}"#, "^[a-z0-9_-]{3,16}$", #"^\+?[1-9]\d{1,14}$"#,
        "^(GET|POST|PUT)$", #"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"#, "^(?:[0-9a-f]{2}:){5}[0-9a-f]{2}$", "ab*c+d?",
        #"^v\d+(\.\d+){0,2}$"#, "^[]a]x$", #"^[\w.]{2}\.json$"#, "^.{5}$", "^x{2,}y$", "colou?r",
    ]

    @Test(arguments: patterns)
    func samplesMatchTheirPattern(_ pattern: String) throws {
        let expression = try NSRegularExpression(pattern: pattern)
        for seed in 0..<50 {
            var random = SplitMix64(seed: UInt64(seed))
            let sample = try #require(PatternSampler.sample(pattern, using: &random), "\(pattern) was not sampled")
            let range = NSRange(sample.startIndex..., in: sample)
            #expect(expression.firstMatch(in: sample, range: range) != nil, "\(sample) does not match \(pattern)")
        }
    }

    @Test(arguments: ["(?=.*[0-9])[A-Z]{8}", #"^\bword\b$"#, #"(a)\1"#, #"\p{L}+"#, "a{3,1}", "[z-a]", "(ab", "a|*"])
    func whatIsNotSampledIsRefused(_ pattern: String) {
        var random = SplitMix64(seed: 1)
        #expect(PatternSampler.sample(pattern, using: &random) == nil)
    }
}
