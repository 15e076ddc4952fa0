import Foundation
import Testing
@testable import TapedeckSession

func url(_ text: String) -> URL {
    guard let url = URL(string: text) else { fatalError("not a URL: \(text)") }
    return url
}

/// Which requests get which cookies: domain- and path-match, host-only against domain cookies, public suffixes,
/// `Secure`, IP addresses (RFC 6265 §5.1.3, §5.1.4, §5.3, §5.4).
@Suite struct CookieMatchingTests {
    let store = CookieStore(clock: ManualWallClock())

    @Test func aCookieWithoutDomainIsHostOnly() throws {
        store.store(setCookieHeaders: ["a=1"], for: url("http://www.example.com/"))
        let cookie = try #require(store.allCookies.first)
        #expect(cookie.domain == "www.example.com")
        #expect(cookie.hostOnly)
        #expect(store.cookieHeader(for: url("http://www.example.com/x")) == "a=1")
        #expect(store.cookieHeader(for: url("http://sub.www.example.com/")) == nil)
        #expect(store.cookieHeader(for: url("http://example.com/")) == nil)
    }

    @Test func aDomainCookieGoesToTheDomainAndItsSubdomains() throws {
        store.store(setCookieHeaders: ["a=1; Domain=.Example.com"], for: url("http://www.example.com/"))
        let cookie = try #require(store.allCookies.first)
        #expect(cookie.domain == "example.com")
        #expect(!cookie.hostOnly)
        for host in ["example.com", "www.example.com", "a.b.example.com", "EXAMPLE.COM"] {
            #expect(store.cookieHeader(for: url("http://\(host)/")) == "a=1", "\(host)")
        }
        for host in ["notexample.com", "example.com.evil.net", "example.org", "com"] {
            #expect(store.cookieHeader(for: url("http://\(host)/")) == nil, "\(host)")
        }
    }

    @Test func aDomainTheHostDoesNotDomainMatchIsRefused() {
        store.store(setCookieHeaders: ["a=1; Domain=other.com", "b=2; Domain=sub.example.com", "c=3; Domain=ample.com",
                                       "d=4; Domain=www.example.com."],
                    for: url("http://www.example.com/"))
        #expect(store.allCookies.isEmpty)
    }

    @Test(arguments: [
        ("com", "www.example.com"), ("COM", "www.example.com"), (".com", "www.example.com"), ("uk", "example.uk"),
        ("co.uk", "www.example.co.uk"), (".CO.UK", "shop.example.co.uk"), ("com.au", "example.com.au"),
        ("github.io", "me.github.io"),
    ])
    func aDomainThatIsAPublicSuffixIsRefused(_ domain: String, _ host: String) {
        store.store(setCookieHeaders: ["a=1; Domain=\(domain)"], for: url("https://\(host)/"))
        #expect(store.allCookies.isEmpty, "Domain=\(domain) from \(host)")
    }

    @Test func aRegistrableDomainUnderAPublicSuffixIsAccepted() {
        store.store(setCookieHeaders: ["a=1; Domain=example.co.uk"], for: url("http://www.example.co.uk/"))
        store.store(setCookieHeaders: ["b=2; Domain=me.github.io"], for: url("https://me.github.io/"))
        #expect(store.cookieHeader(for: url("http://shop.example.co.uk/")) == "a=1")
        #expect(store.cookieHeader(for: url("https://me.github.io/")) == "b=2")
        #expect(store.cookieHeader(for: url("https://you.github.io/")) == nil)
    }

    @Test func aPublicSuffixThatIsTheHostItselfGivesAHostOnlyCookie() throws {
        store.store(setCookieHeaders: ["a=1; Domain=localhost"], for: url("http://localhost:8080/"))
        let cookie = try #require(store.allCookies.first)
        #expect(cookie.hostOnly)
        #expect(cookie.domain == "localhost")
        #expect(store.cookieHeader(for: url("http://localhost/")) == "a=1")
        #expect(store.cookieHeader(for: url("http://a.localhost/")) == nil)
    }

    @Test func ipAddressesMatchOnlyThemselves() throws {
        store.store(setCookieHeaders: ["a=1"], for: url("http://127.0.0.1:8080/"))
        store.store(setCookieHeaders: ["b=2; Domain=0.0.1"], for: url("http://127.0.0.1/"))
        store.store(setCookieHeaders: ["c=3; Domain=127.0.0.1"], for: url("http://127.0.0.1/"))
        #expect(store.cookieHeader(for: url("http://127.0.0.1/")) == "a=1; c=3")
        #expect(store.cookieHeader(for: url("http://1.127.0.0.1.example/")) == nil)
        #expect(store.cookieHeader(for: url("http://10.0.0.1/")) == nil)

        store.store(setCookieHeaders: ["v6=1"], for: url("http://[::1]:8080/"))
        let cookie = try #require(store.allCookies.last)
        #expect(cookie.domain == "::1")
        #expect(store.cookieHeader(for: url("http://[::1]/")) == "v6=1")
    }

    @Test func theDefaultPathIsTheRequestsDirectory() {
        let cases: [(request: String, path: String)] = [
            ("http://example.com", "/"), ("http://example.com/", "/"), ("http://example.com/file", "/"),
            ("http://example.com/dir/", "/dir"), ("http://example.com/a/b/file?x=/y", "/a/b"),
        ]
        for (request, expected) in cases {
            store.removeAll()
            store.store(setCookieHeaders: ["a=1", "b=2; Path=relative"], for: url(request))
            #expect(store.allCookies.map(\.path) == [expected, expected], "\(request)")
        }
    }

    @Test func pathMatchNeedsAPrefixEndingAtASlash() {
        #expect(CookiePath.matches(requestPath: "/docs", cookiePath: "/docs"))
        #expect(CookiePath.matches(requestPath: "/docs/", cookiePath: "/docs"))
        #expect(CookiePath.matches(requestPath: "/docs/web/x", cookiePath: "/docs"))
        #expect(CookiePath.matches(requestPath: "/docs/web", cookiePath: "/docs/"))
        #expect(CookiePath.matches(requestPath: "/anything", cookiePath: "/"))
        #expect(!CookiePath.matches(requestPath: "/docsets", cookiePath: "/docs"))
        #expect(!CookiePath.matches(requestPath: "/", cookiePath: "/docs"))
        #expect(!CookiePath.matches(requestPath: "/Docs", cookiePath: "/docs"))

        store.store(setCookieHeaders: ["a=1; Path=/docs"], for: url("http://example.com/"))
        #expect(store.cookieHeader(for: url("http://example.com/docs/web?q=1")) == "a=1")
        #expect(store.cookieHeader(for: url("http://example.com/docsets")) == nil)
    }

    @Test func aSecureCookieIsSetAndSentOnlyOverHTTPS() {
        store.store(setCookieHeaders: ["insecure=1; Secure"], for: url("http://example.com/"))
        #expect(store.allCookies.isEmpty)

        store.store(setCookieHeaders: ["s=1; Secure", "p=2"], for: url("https://example.com/"))
        #expect(store.cookieHeader(for: url("https://example.com/")) == "s=1; p=2")
        #expect(store.cookieHeader(for: url("wss://example.com/")) == "s=1; p=2")
        #expect(store.cookieHeader(for: url("http://example.com/")) == "p=2")
        #expect(store.cookieHeader(for: url("ws://example.com/")) == "p=2")
    }

    @Test func plainHTTPToLoopbackIsNotSecure() {
        store.store(setCookieHeaders: ["s=1; Secure"], for: url("http://localhost/"))
        store.store(setCookieHeaders: ["s=1; Secure"], for: url("http://127.0.0.1/"))
        #expect(store.allCookies.isEmpty)
    }

    @Test func urlsWithoutAHostNeitherSetNorGetCookies() {
        store.store(setCookieHeaders: ["a=1"], for: URL(fileURLWithPath: "/tmp/x"))
        #expect(store.allCookies.isEmpty)
        #expect(store.cookieHeader(for: URL(fileURLWithPath: "/tmp/x")) == nil)
        #expect(store.cookies(for: url("relative/path")).isEmpty)
    }
}
