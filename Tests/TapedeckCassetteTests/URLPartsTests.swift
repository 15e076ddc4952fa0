import Testing
@testable import TapedeckCassette

/// The matcher compares normalized URLs, so normalizing must give the same text once or twice, for any input.
@Suite struct URLPartsTests {
    @Test(arguments: [
        // Found by the form-query fuzz target (Tools/Fuzz/Regressions/form-query/unbracketed-ipv6-authority): the
        // authority `[::` split as host `[:` and an empty port, whose colon normalizing dropped.
        "http://[:://\u{FFFD}[::11&=a?\u{FFFD}&\u{0359}:1]:81?b&a=1",
        "http://a::/x?b&a",
        "http://a:b:/x",
        "HTTP://Example.COM:80/?b=2&a=1#frag",
        "https://[::1]:443",
        "http://host:/path",
    ])
    func normalizingTwiceGivesWhatOnceGives(url: String) {
        let once = URLParts(url).normalized(original: url)
        #expect(URLParts(once).normalized(original: once) == once)
    }

    @Test func validAuthoritiesStillSplitIntoHostAndPort() {
        #expect(URLParts("HTTP://Example.COM:80/?b=2&a=1").normalized(original: "") == "http://example.com/?a=1&b=2")
        #expect(URLParts("http://[::1]:8080/x").port == "8080")
        #expect(URLParts("http://user@host:8080/x").host == "host")
        #expect(URLParts("http://a::/x").host == "a::")
    }
}
