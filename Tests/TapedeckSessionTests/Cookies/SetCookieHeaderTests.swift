import Foundation
import Testing
@testable import TapedeckSession

/// Parsing one `Set-Cookie` value (RFC 6265 §5.2), before any storage rule.
@Suite struct SetCookieHeaderTests {
    @Test func nameAndValueAreTrimmedOfWhitespaceOnly() throws {
        let header = try #require(SetCookieHeader(" \tSID = 31d4d96e407aad42 \t; Path=/"))
        #expect(header.name == "SID")
        #expect(header.value == "31d4d96e407aad42")
    }

    @Test func theValueKeepsQuotesAndEqualsSigns() throws {
        let header = try #require(SetCookieHeader(#"token="a=b=c""#))
        #expect(header.name == "token")
        #expect(header.value == #""a=b=c""#)
        #expect(try #require(SetCookieHeader("empty=")).value == "")
    }

    @Test(arguments: ["novalue", "=value", " = value", "", "; Path=/", "a\u{0}b=1", "a=b\r\nInjected: 1", "a=\u{7F}"])
    func headersWithoutANameOrWithControlCharactersAreIgnored(_ text: String) {
        #expect(SetCookieHeader(text) == nil)
    }

    @Test func nameAndValueLongerThan4096BytesTogetherAreIgnored() {
        #expect(SetCookieHeader("n=" + String(repeating: "v", count: 4095)) != nil)
        #expect(SetCookieHeader("n=" + String(repeating: "v", count: 4096)) == nil)
    }

    @Test func attributeNamesAreCaseInsensitiveAndUnknownOnesAreSkipped() throws {
        let header = try #require(SetCookieHeader(
            "a=1; DOMAIN=Example.COM; pAtH=/docs; SECURE; httponly; Priority=High; samesite=lax; max-AGE=60"))
        #expect(header.domain == "example.com")
        #expect(header.path == .path("/docs"))
        #expect(header.secure)
        #expect(header.httpOnly)
        #expect(header.sameSite == "Lax")
        #expect(header.maxAge == 60)
    }

    @Test func flagsIgnoreAValueAndWhitespace() throws {
        let header = try #require(SetCookieHeader("a=1;Secure=no ;  HttpOnly  "))
        #expect(header.secure)
        #expect(header.httpOnly)
    }

    @Test func theDomainLosesItsLeadingDotAndAnEmptyDomainIsIgnored() throws {
        #expect(try #require(SetCookieHeader("a=1; Domain=.example.com")).domain == "example.com")
        #expect(try #require(SetCookieHeader("a=1; Domain=")).domain == nil)
        #expect(try #require(SetCookieHeader("a=1; Domain=example.com; Domain=")).domain == "example.com")
        #expect(try #require(SetCookieHeader("a=1; Domain=a.example; Domain=b.example")).domain == "b.example")
    }

    @Test func aPathThatDoesNotStartWithASlashMeansTheDefaultPath() throws {
        #expect(try #require(SetCookieHeader("a=1; Path=/x; Path=relative")).path == .invalid)
        #expect(try #require(SetCookieHeader("a=1; Path=")).path == .invalid)
        #expect(try #require(SetCookieHeader("a=1")).path == nil)
        #expect(try #require(SetCookieHeader("a=1; Path=/a/b/")).path == .path("/a/b/"))
    }

    @Test func maxAgeMustBeAnOptionalMinusAndDigits() throws {
        #expect(try #require(SetCookieHeader("a=1; Max-Age=0")).maxAge == 0)
        #expect(try #require(SetCookieHeader("a=1; Max-Age=-5")).maxAge == -5)
        #expect(try #require(SetCookieHeader("a=1; Max-Age=99999999999999999999999")).maxAge == .max)
        for bad in ["+5", "5s", "1.5", "", "-", " ", "0x10"] {
            #expect(try #require(SetCookieHeader("a=1; Max-Age=\(bad)")).maxAge == nil, "Max-Age=\(bad)")
        }
        #expect(try #require(SetCookieHeader("a=1; Max-Age=10; Max-Age=oops")).maxAge == 10)
    }

    @Test func anExpiresThatDoesNotParseIsIgnored() throws {
        let header = try #require(SetCookieHeader("a=1; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Expires=never"))
        #expect(header.expires == CookieDateTests.rfcExample)
        #expect(try #require(SetCookieHeader("a=1; Expires=never")).expires == nil)
    }

    @Test func sameSiteIsKeptWithKnownValuesInTheirUsualSpelling() throws {
        #expect(try #require(SetCookieHeader("a=1; SameSite=STRICT")).sameSite == "Strict")
        #expect(try #require(SetCookieHeader("a=1; SameSite=none")).sameSite == "None")
        #expect(try #require(SetCookieHeader("a=1; SameSite=Sometimes")).sameSite == "Sometimes")
        #expect(try #require(SetCookieHeader("a=1")).sameSite == nil)
    }
}
