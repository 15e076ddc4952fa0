import Foundation

/// What is wrong with a regular expression read from a file (a stub's matcher, a Pact rule, a JSON Schema
/// `pattern`, a redaction filter), in words a user can act on.
///
/// `NSRegularExpression` refuses a bad pattern with Foundation's "The operation could not be completed. The value is
/// invalid.", which says neither what nor where. Swift's own regular-expression parser reads the same syntax for
/// what patterns in such files use, and says both: "expected ')' at offset 3". So a pattern ICU refused is parsed
/// again by it, only to word the refusal. Where Swift's parser accepts it (a construct only ICU rejects), blames a
/// feature its own engine lacks, or the pattern is too long or too deeply nested to hand to a recursive parser, the
/// sentence says ICU refused it.
///
/// ```swift
/// RegexProblem.words(for: "a(b")   // "expected ')' at offset 3"
/// ```
package enum RegexProblem {
    /// The longest pattern, in UTF-8 bytes, whose refusal is worded by Swift's parser.
    static let longestParsed = 4096
    /// The deepest nesting of groups and classes whose refusal is worded by Swift's parser (it recurses per level).
    static let deepestParsed = 64
    /// What is said when Swift's parser cannot say more.
    static let unworded = "ICU's regular-expression syntax does not accept it"

    /// What is wrong with `pattern`, which `NSRegularExpression` refused: Swift's parser's words and, when it says
    /// where, the character offset from the pattern's start (`expected ')' at offset 3`).
    package static func words(for pattern: String) -> String {
        guard pattern.utf8.count <= longestParsed, nesting(of: pattern) <= deepestParsed else { return unworded }
        do {
            _ = try Regex(pattern)
            return unworded
        } catch {
            let words = "\(error)"
            // What Swift's engine lacks (lookbehind) is no fault of the pattern's.
            if words.isEmpty || words.contains("not currently supported") || words.contains("unsupported") { return unworded }
            return offset(of: error, in: pattern).map { "\(words) at offset \($0)" } ?? words
        }
    }

    /// Where Swift's parser placed its error, as a character offset into `pattern`: its `LocatedError` carries the
    /// range, which only reflection reaches (the type lives in an underscored module); `nil` where it is not found.
    static func offset(of error: any Error, in pattern: String) -> Int? {
        guard let range = Mirror(reflecting: error).descendant("location", "range") as? Range<String.Index>,
              range.lowerBound >= pattern.startIndex, range.lowerBound <= pattern.endIndex else { return nil }
        return pattern[..<range.lowerBound].count
    }

    /// The deepest nesting of unescaped `(` and `[` in `pattern`, counted over its bytes.
    static func nesting(of pattern: String) -> Int {
        var depth = 0, deepest = 0, escaped = false
        for byte in pattern.utf8 {
            if escaped {
                escaped = false
                continue
            }
            switch byte {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "("), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            default: break
            }
        }
        return deepest
    }
}
