import Foundation
import TapedeckCore

/// A delay's JSON form: `{"milliseconds": N}`, or `{"minMilliseconds": A, "maxMilliseconds": B, "seed": S}` (seed 0
/// when absent).
extension StubDelay: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case milliseconds, minMilliseconds, maxMilliseconds, seed }

    /// Decodes a fixed or a random delay, refusing negative times, times over ``maximumMilliseconds``, an empty range
    /// and a mix of the two forms.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let milliseconds = try container.decodeIfPresent(Int.self, forKey: .milliseconds)
        let low = try container.decodeIfPresent(Int.self, forKey: .minMilliseconds)
        let high = try container.decodeIfPresent(Int.self, forKey: .maxMilliseconds)
        let seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        if let milliseconds {
            guard low == nil, high == nil else {
                throw DecodingError.definition("give either milliseconds or minMilliseconds and maxMilliseconds, not both", at: decoder.codingPath)
            }
            if let refusal = Self.refusal(milliseconds) {
                throw DecodingError.dataCorruptedError(forKey: .milliseconds, in: container, debugDescription: refusal)
            }
            self = .fixed(.milliseconds(milliseconds))
            return
        }
        guard let low, let high else {
            throw DecodingError.definition("give milliseconds, or both minMilliseconds and maxMilliseconds", at: decoder.codingPath)
        }
        guard 0 <= low, low <= high else {
            throw DecodingError.definition("needs 0 ≤ minMilliseconds ≤ maxMilliseconds, got \(low) and \(high)", at: decoder.codingPath)
        }
        if let refusal = Self.refusal(high) {
            throw DecodingError.dataCorruptedError(forKey: .maxMilliseconds, in: container, debugDescription: refusal)
        }
        self = .random(.milliseconds(low)...(.milliseconds(high)), seed: seed ?? 0)
    }

    /// Encodes the delay as defined, in whole milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .fixed(let duration):
            try container.encode(Int(duration.nanoseconds / 1_000_000), forKey: .milliseconds)
        case .random(let range, let seed):
            try container.encode(Int(range.lowerBound.nanoseconds / 1_000_000), forKey: .minMilliseconds)
            try container.encode(Int(range.upperBound.nanoseconds / 1_000_000), forKey: .maxMilliseconds)
            try container.encode(seed, forKey: .seed)
        }
    }
}
