import Foundation
import Testing
@testable import TapedeckCore

/// A refused regular expression is said in words, with where: what `NSRegularExpression` calls only "The operation
/// could not be completed. The value is invalid."
@Suite struct RegexProblemTests {
    @Test(arguments: [
        ("a(b", "expected ')' at offset 3"),
        ("(unclosed", "expected ')' at offset 9"),
        ("[z-a]", "character 'z' must compare less than or equal to 'a' at offset 2"),
        (#"\p{Foo}"#, "unknown character property 'Foo' at offset 3"),
        ("[[:foo:]]", "unknown character property 'foo'"),
        ("*a", "quantifier '*' must appear after expression at offset 0"),
        ("a)", "closing ')' does not balance any groups openings at offset 1"),
        (#"(?<n>a)\k<m>"#, "no capture named 'm'"),
        ("é(ü", "expected ')' at offset 3"),
    ])
    func aRefusedPatternIsSaidInWords(pattern: String, words: String) {
        #expect(throws: (any Error).self) { try NSRegularExpression(pattern: pattern) }
        #expect(RegexProblem.words(for: pattern).hasPrefix(words), "\(RegexProblem.words(for: pattern))")
    }

    /// Where Swift's parser cannot say more, the sentence says ICU refused it: a construct Swift reads and ICU does
    /// not, a feature Swift's engine lacks (its words would blame the pattern wrongly), a pattern too long or nested
    /// too deep to hand to a recursive parser.
    @Test(arguments: ["(?P<x>a)", "(?<=a+)b", String(repeating: "a", count: 5000) + "(",
                      String(repeating: "(", count: 100_000)])
    func whatSwiftCannotWordIsSaidPlainly(pattern: String) {
        #expect(throws: (any Error).self) { try NSRegularExpression(pattern: pattern) }
        #expect(RegexProblem.words(for: pattern) == "ICU's regular-expression syntax does not accept it")
    }

    @Test func nestingCountsUnescapedGroupsAndClasses() {
        #expect(RegexProblem.nesting(of: "a(b[c(d)])") == 3)
        #expect(RegexProblem.nesting(of: #"\(\[x\]\)"#) == 0)
        #expect(RegexProblem.nesting(of: "))((") == 2)
    }
}
