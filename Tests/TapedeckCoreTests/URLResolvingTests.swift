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
}
