import Foundation
import Testing
import TapedeckCore

@Suite struct URLResolvingTests {
    @Test func onlyABasePathWithoutATrailingSlashGetsOne() {
        let base = URL(string: "https://api.example.com/v1")!.normalizedAsBase
        #expect(base.absoluteString == "https://api.example.com/v1/")
        #expect(base.normalizedAsBase == base)
        #expect(URL(string: "https://api.example.com")!.normalizedAsBase.absoluteString == "https://api.example.com")
    }

    @Test(arguments: [
        ("foo", "http://example.com/v1/foo"),
        ("foo?bar=baz", "http://example.com/v1/foo?bar=baz"),
        ("/foo", "http://example.com/foo"),
        ("../foo", "http://example.com/foo"),
        ("//other.example.com/x", "http://other.example.com/x"),
        ("https://example2.com/x?y=1", "https://example2.com/x?y=1"),
        ("HTTPS://example2.com/x", "HTTPS://example2.com/x"),
        ("ftp://files.example.com/a", "ftp://files.example.com/a"),
    ])
    func pathsResolveAgainstTheBaseUnlessAbsolute(path: String, expected: String) {
        #expect(URL.resolving(path, against: URL(string: "http://example.com/v1")!)?.absoluteString == expected)
    }

    @Test func resultsWithoutASchemeOrHostAreRefused() {
        #expect(URL.resolving("relative/path", against: nil) == nil)
        #expect(URL.resolving("//host/x", against: nil) == nil)
        #expect(URL.resolving("http://", against: URL(string: "http://example.com/v1")!) == nil)
        #expect(URL.resolving("mailto:ada@example.com", against: URL(string: "http://example.com/v1")!) == nil)
        #expect(URL.resolving("http://127.0.0.1/x", against: nil)?.absoluteString == "http://127.0.0.1/x")
    }

    /// Plain relative paths take a shortcut (the two texts joined); it must agree with RFC 3986 resolution for every
    /// path, including the ones that are not plain and fall back.
    @Test(arguments: [
        "users", "users/7", "a-b_c~d/e.f", ".hidden", "a..b", "v2/items/", "x/./y", "x/../y", "..", ".", "./x",
        "/root", "a?b=1", "a#frag", "a b", "a%20b", "a:b", "", "users/7/",
    ])
    func theShortcutAgreesWithRFC3986(path: String) throws {
        for baseText in ["https://api.example.com/v1/", "https://api.example.com/v1", "https://api.example.com/",
                         "https://api.example.com/v1/?q=1", "https://api.example.com:8443/v1/#top"] {
            let base = try #require(URL(string: baseText))
            let expected = URL(string: path, relativeTo: base.normalizedAsBase)?.absoluteURL
            let resolved = URL.resolving(path, against: base)
            // No host (e.g. "a:b", a scheme of its own) is no URL to send to.
            let expectedText = expected?.host == nil ? nil : expected?.absoluteString
            #expect(resolved?.absoluteString == expectedText, "\(path) against \(baseText)")
        }
    }
}
