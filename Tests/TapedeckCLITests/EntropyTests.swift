import Testing
@testable import TapedeckCLICore

@Suite struct EntropyTests {
    @Test func shannonOfUniformAndConstantText() {
        #expect(Entropy.shannon("aaaaaaaa") == 0)
        #expect(abs(Entropy.shannon("abcd") - 2) < 1e-9)
        #expect(Entropy.shannon("") == 0)
    }

    @Test func findsRandomTokensButNotWordsOrShortValues() {
        let stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dcXq"
        #expect(Entropy.suspiciousTokens(in: "key=\(stripe)&page=2") == [stripe])
        #expect(Entropy.suspiciousTokens(in: "application/x-www-form-urlencoded; charset=utf-8").isEmpty)
        #expect(Entropy.suspiciousTokens(in: "short A1b2C3").isEmpty)
        #expect(Entropy.suspiciousTokens(in: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa").isEmpty)
    }

    @Test func hexDigestsAreMeasuredAsHex() {
        let sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        #expect(Entropy.kind(of: sha) == .hex)
        #expect(Entropy.isSuspicious(sha))
        #expect(!Entropy.isSuspicious("00000000000000000000000000"))
    }

    @Test func findsTokensInsidePaths() {
        let token = "Zk9qR2x1bW5vcFF3ZXJ0eXVpb3A"
        #expect(Entropy.suspiciousTokens(in: "/v1/files/\(token)/download") == [token])
    }
}
