import Foundation
import TapedeckCassette

/// Finds high-entropy tokens (likely keys, tokens and signatures) in text: runs of base64- or hex-looking
/// characters at least ``minimumLength`` long whose Shannon entropy per character passes a threshold.
///
/// ```swift
/// Entropy.shannon("aaaa")                          // 0
/// Entropy.suspiciousTokens(in: "key=sk_live_4eC39HqLyjWDarjtT1zdp7dc")   // ["sk_live_4eC39HqLyjWDarjtT1zdp7dc"]
/// ```
public enum Entropy {
    /// Tokens shorter than this are never reported.
    public static let minimumLength = 20
    /// Bits per character above which a base64-looking token is reported.
    public static let base64Threshold = 4.0
    /// Bits per character above which a hex token is reported.
    public static let hexThreshold = 3.0

    /// Shannon entropy of `text` in bits per character.
    public static func shannon(_ text: some StringProtocol) -> Double {
        var counts: [Character: Int] = [:]
        var total = 0
        for character in text {
            counts[character, default: 0] += 1
            total += 1
        }
        guard total > 0 else { return 0 }
        return counts.values.reduce(0) { sum, count in
            let p = Double(count) / Double(total)
            return sum - p * log2(p)
        }
    }

    /// The kind of a token, when it looks like an encoded secret.
    public enum Kind: String, Sendable {
        /// Only hexadecimal digits.
        case hex
        /// Base64 or base64url characters, with digits and both letter cases.
        case base64
    }

    /// Whether `token` looks hex or base64, and so is worth measuring.
    public static func kind(of token: some StringProtocol) -> Kind? {
        guard token.count >= minimumLength else { return nil }
        if token.allSatisfy(\.isHexDigit) { return .hex }
        var digit = false, lower = false, upper = false
        for character in token {
            if character.isASCII, character.isNumber { digit = true }
            else if character.isASCII, character.isLowercase { lower = true }
            else if character.isASCII, character.isUppercase { upper = true }
            else if !"+/=_-".contains(character) { return nil }
        }
        return digit && lower && upper ? .base64 : nil
    }

    /// Whether `token` is long, encoded-looking and random enough to be a secret.
    public static func isSuspicious(_ token: some StringProtocol) -> Bool {
        switch kind(of: token) {
        case .hex: return shannon(token) > hexThreshold
        case .base64: return shannon(token) > base64Threshold
        case nil: return false
        }
    }

    /// The suspicious tokens of `text`, in order, each once. Tokens are split at characters that are neither
    /// base64 nor base64url, then at `/` and `=`.
    public static func suspiciousTokens(in text: String) -> [String] {
        var found: [String] = []
        // Stand-ins are random-looking by design, and no secret.
        let tokens = StandIn.blurred(text).split { !($0.isASCII && ($0.isLetter || $0.isNumber)) && !"+/=_-".contains($0) }
        for token in tokens {
            // `name=value` and `/a/b` pieces are measured apart; a base64 token with `/` in it whole when no piece is.
            var candidates = token.split { $0 == "/" || $0 == "=" }.filter { isSuspicious($0) }
            if candidates.isEmpty {
                let whole = token.drop { $0 == "/" || $0 == "=" }
                let trimmed = whole.prefix(whole.count - whole.reversed().prefix { $0 == "=" }.count)
                if isSuspicious(trimmed) { candidates = [trimmed] }
            }
            for candidate in candidates where !found.contains(String(candidate)) { found.append(String(candidate)) }
        }
        return found
    }
}

