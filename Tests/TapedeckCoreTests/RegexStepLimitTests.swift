import Foundation
import Testing
import TapedeckCore

/// `RegexStepLimit`, the one bound on every regular expression Tapedeck runs against text from a file or a peer
/// (issue H9): a catastrophic pattern gives up at the step budget and says so; ordinary ones search and replace.
@Suite struct RegexStepLimitTests {
    /// Exponential for a backtracking engine: 2^40 ways to split the a's before the `b` rules each out.
    static let catastrophic = String(repeating: "a", count: 40) + "b"
    static let nested = try! NSRegularExpression(pattern: "^(a+)+$")

    @Test func aCatastrophicSearchGivesUpAtTheBudgetAndNamesIt() {
        #expect(RegexStepLimit.search(Self.nested, in: Self.catastrophic)
                    == .gaveUp("gave up after \(RegexStepLimit.steps) backtracking steps (the step limit of one match)"))
    }

    @Test func aCatastrophicReplacementGivesUpAndReplacesNothing() {
        #expect(RegexStepLimit.replacingMatches(of: Self.nested, in: Self.catastrophic, with: "x")
                    == .gaveUp("gave up after \(RegexStepLimit.steps) backtracking steps (the step limit of one match)"))
    }

    @Test func ordinarySearchesAndReplacementsAreExact() throws {
        let account = try NSRegularExpression(pattern: #"acct-(\d+)"#)
        #expect(RegexStepLimit.search(account, in: "id acct-42") == .found)
        #expect(RegexStepLimit.search(account, in: "id acct-") == .notFound)
        // Every match, templates with groups, text between and around the matches kept, non-ASCII text included.
        #expect(RegexStepLimit.replacingMatches(of: account, in: "é acct-1, acct-22 ü", with: "acct-[$1]")
                    == .replaced("é acct-[1], acct-[22] ü"))
        #expect(RegexStepLimit.replacingMatches(of: account, in: "nothing here", with: "x") == .replaced("nothing here"))
        // What Foundation itself makes of the same replacement.
        let text = "a acct-7 b acct-8"
        #expect(RegexStepLimit.replacingMatches(of: account, in: text, with: "<$1>")
                    == .replaced(account.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "<$1>")))
    }

    /// The engine reports every start position it moves to as progress too: a pattern that fails fast at each
    /// position of a long text (a redaction filter over a large body) must not be taken for a catastrophic one.
    @Test func anUnanchoredSearchOfALongTextIsNotStopped() throws {
        let large = String(repeating: "x", count: 1_000_000)
        let needle = try NSRegularExpression(pattern: "ne+dle")
        #expect(RegexStepLimit.search(needle, in: large + "needle") == .found)
        #expect(RegexStepLimit.search(needle, in: large) == .notFound)
        #expect(RegexStepLimit.replacingMatches(of: needle, in: "needle" + large + "needle", with: "") == .replaced(large))
    }
}
