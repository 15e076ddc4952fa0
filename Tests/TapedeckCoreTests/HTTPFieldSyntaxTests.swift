import Testing
import TapedeckCore

/// The token and quoted-string grammar the WWW-Authenticate, Cache-Control and Sec-WebSocket-Extensions readers share.
@Suite struct HTTPFieldSyntaxTests {
    @Test func tokensStopAtDelimiters() {
        var scanner = HTTPFieldSyntax.Scanner("permessage-deflate; a=1")
        #expect(scanner.token() == "permessage-deflate")
        #expect(scanner.token() == nil)
        let skipped = scanner.skip(";")
        #expect(skipped)
        scanner.skipWhitespace()
        #expect(scanner.token() == "a")
        #expect(HTTPFieldSyntax.isToken("x-webkit!#$%&'*+.^_`|~09"))
        #expect(!HTTPFieldSyntax.isToken(""))
        #expect(!HTTPFieldSyntax.isToken("a b"))
        #expect(!HTTPFieldSyntax.isToken("é"))
    }

    @Test func quotedStringsLoseTheirQuotesAndEscapes() {
        var scanner = HTTPFieldSyntax.Scanner(#""a \"b\" \\c", rest"#)
        #expect(scanner.quotedString() == #"a "b" \c"#)
        #expect(scanner.current == UInt8(ascii: ","))
    }

    @Test func anUnterminatedQuotedStringIsRefusedOrRunsToTheEndAsAsked() {
        var strict = HTTPFieldSyntax.Scanner(#""open \"#)
        #expect(strict.quotedString() == nil)
        #expect(strict.position == 0, "nothing read")
        var lenient = strict
        #expect(lenient.quotedString(allowingUnterminated: true) == "open ")
        #expect(lenient.isAtEnd)
    }

    @Test(arguments: ["", "plain", #"say "hi""#, #"back\slash\"#, "ü \"\u{301}", "a,b;c=d"])
    func whatQuotedWritesTheScannerReadsBack(_ text: String) {
        var scanner = HTTPFieldSyntax.Scanner(HTTPFieldSyntax.quoted(text))
        #expect(scanner.quotedString() == text)
        #expect(scanner.isAtEnd)
    }

    @Test func listElementsAreTrimmedWithoutEmptyOnes() {
        #expect(HTTPFieldSyntax.listElements(" keep-alive ,, Upgrade,") == ["keep-alive", "Upgrade"])
    }

    @Test func whitespaceIsTrimmedFromBothEndsOnly() {
        #expect(Array(HTTPFieldSyntax.trimmingWhitespace(" \t a b \t".utf8)) == Array("a b".utf8))
        #expect(HTTPFieldSyntax.trimmingWhitespace(" \t ".utf8).isEmpty)
        #expect(Array(HTTPFieldSyntax.trimmingWhitespace("\r\nx".utf8)) == Array("\r\nx".utf8), "only SP and HTAB")
    }
}
