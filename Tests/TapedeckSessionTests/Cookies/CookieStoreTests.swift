import Foundation
import Testing
@testable import TapedeckSession

/// Expiry, replacement, ordering and the reading and writing API of ``CookieStore``.
@Suite struct CookieStoreTests {
    let clock = ManualWallClock()
    let store: CookieStore
    let site = url("https://example.com/")

    init() {
        store = CookieStore(clock: clock)
    }

    @Test func theDocumentationExampleHolds() {
        store.store(setCookieHeaders: ["id=a3fWa; Domain=example.com; Path=/; Max-Age=3600; Secure; HttpOnly",
                                       "theme=dark"], for: url("https://shop.example.com/cart/items"))
        #expect(store.cookieHeader(for: url("https://www.example.com/")) == "id=a3fWa")
        #expect(store.cookieHeader(for: url("https://shop.example.com/cart")) == "theme=dark; id=a3fWa")
    }

    // MARK: Expiry

    @Test func maxAgeSetsTheExpiryFromTheStoresClock() throws {
        store.store(setCookieHeaders: ["a=1; Max-Age=60"], for: site)
        #expect(try #require(store.allCookies.first).expires == clock.now.addingTimeInterval(60))
        clock.advance(by: .seconds(59))
        #expect(store.cookieHeader(for: site) == "a=1")
        clock.advance(by: .seconds(1))
        #expect(store.cookieHeader(for: site) == nil)
        #expect(store.count == 0, "an expired cookie met by a lookup is removed")
    }

    @Test func anExpiredCookieAmongLiveOnesIsSkippedAndRemoved() {
        store.store(setCookieHeaders: ["a=1; Path=/x", "b=2; Max-Age=10", "c=3; Domain=example.com; Max-Age=10",
                                       "d=4; Domain=example.com"], for: site)
        clock.advance(by: .seconds(10))
        #expect(store.count == 4)
        #expect(store.cookieHeader(for: url("https://example.com/x")) == "a=1; d=4")
        #expect(store.count == 2)
    }

    @Test func maxAgeWinsOverExpiresInEitherOrder() throws {
        let past = "Expires=Sun, 06 Nov 1994 08:49:37 GMT"
        store.store(setCookieHeaders: ["a=1; \(past); Max-Age=60", "b=2; Max-Age=60; \(past)"], for: site)
        #expect(store.allCookies.map(\.expires) == [clock.now.addingTimeInterval(60), clock.now.addingTimeInterval(60)])

        store.store(setCookieHeaders: ["a=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT; Max-Age=0"], for: site)
        #expect(store.allCookies.map(\.name) == ["b"])
    }

    @Test func expiresSetsTheExpiryAndAPastDateDeletes() throws {
        store.store(setCookieHeaders: ["a=1; Expires=Thu, 01 Jan 2026 00:01:00 GMT"], for: site)
        #expect(try #require(store.allCookies.first).expires == clock.now.addingTimeInterval(60))
        clock.advance(by: .seconds(60))
        #expect(store.cookies(for: site).isEmpty)

        store.store(setCookieHeaders: ["b=2"], for: site)
        store.store(setCookieHeaders: ["b=gone; Expires=Wed, 31 Dec 2025 23:59:59 GMT"], for: site)
        #expect(store.allCookies.isEmpty)
    }

    @Test func aNonPositiveMaxAgeDeletesTheStoredCookie() {
        store.store(setCookieHeaders: ["a=1", "b=2", "c=3; Path=/c"], for: site)
        store.store(setCookieHeaders: ["a=; Max-Age=0", "b=; Max-Age=-1", "c=; Max-Age=0"], for: site)
        #expect(store.allCookies.map(\.name) == ["c"], "the deletion must name the same path")
    }

    @Test func aSessionCookieHasNoExpiryAndLivesOn() throws {
        store.store(setCookieHeaders: ["a=1"], for: site)
        #expect(try #require(store.allCookies.first).expires == nil)
        clock.advance(by: .seconds(86_400 * 3650))
        #expect(store.cookieHeader(for: site) == "a=1")
    }

    @Test func hugeMaxAgesAreCutAtTheYear9999() throws {
        store.store(setCookieHeaders: ["a=1; Max-Age=99999999999999999999"], for: site)
        #expect(try #require(store.allCookies.first).expires == CookieStoragePolicy.latestExpiry)
    }

    @Test func removeExpiredRemovesOnlyExpiredCookies() {
        store.store(setCookieHeaders: ["a=1; Max-Age=10", "b=2; Max-Age=100", "c=3"], for: site)
        clock.advance(by: .seconds(10))
        #expect(store.count == 3)
        #expect(store.removeExpired() == 1)
        #expect(store.allCookies.map(\.name) == ["b", "c"])
    }

    // MARK: Replacement

    @Test func aReplacementKeepsTheCreationTimeAndTakesEverythingElse() throws {
        store.store(setCookieHeaders: ["a=1; HttpOnly"], for: site)
        let created = clock.now
        clock.advance(by: .seconds(30))
        store.store(setCookieHeaders: ["a=2; Secure; SameSite=Lax; Max-Age=60"], for: site)
        let cookie = try #require(store.allCookies.first)
        #expect(store.count == 1)
        #expect(cookie.value == "2")
        #expect(cookie.created == created)
        #expect(cookie.secure && !cookie.httpOnly && cookie.sameSite == "Lax")
        #expect(cookie.expires == clock.now.addingTimeInterval(60))
    }

    @Test func cookiesDifferingInNameDomainOrPathLiveSideBySide() {
        let www = url("https://www.example.com/a/b")
        store.store(setCookieHeaders: ["a=host", "a=domain; Domain=example.com", "a=root; Path=/", "b=host"], for: www)
        #expect(store.count == 4)
        #expect(store.cookieHeader(for: www) == "a=host; a=domain; b=host; a=root")
    }

    @Test func aDomainCookieReplacesTheHostOnlyCookieOfTheSameDomain() throws {
        store.store(setCookieHeaders: ["a=1"], for: site)
        store.store(setCookieHeaders: ["a=2; Domain=example.com"], for: site)
        let cookie = try #require(store.allCookies.first)
        #expect(store.count == 1)
        #expect(!cookie.hostOnly && cookie.value == "2")
    }

    // MARK: Order and access time

    @Test func longerPathsComeFirstThenEarlierCreation() {
        store.store(setCookieHeaders: ["root=1; Path=/"], for: site)
        clock.advance(by: .seconds(1))
        store.store(setCookieHeaders: ["deep=1; Path=/a/b", "mid=1; Path=/a"], for: site)
        clock.advance(by: .seconds(1))
        store.store(setCookieHeaders: ["early=1; Path=/a"], for: url("https://x.example.com/"))
        store.store(setCookieHeaders: ["domain=1; Path=/a; Domain=example.com"], for: url("https://x.example.com/"))
        clock.advance(by: .seconds(1))
        store.store(setCookieHeaders: ["root=2; Path=/"], for: site)  // replaced: keeps its early creation time
        #expect(store.cookieHeader(for: url("https://example.com/a/b/c")) == "deep=1; mid=1; domain=1; root=2")
        #expect(store.cookies(for: url("https://x.example.com/a")).map(\.name) == ["early", "domain"])
    }

    @Test func aHeaderUpdatesTheLastAccessTimeAndCookiesForDoesNot() throws {
        store.store(setCookieHeaders: ["a=1", "b=1; Path=/b"], for: site)
        let created = clock.now
        clock.advance(by: .seconds(5))
        _ = store.cookies(for: site)
        #expect(store.allCookies.map(\.lastAccessed) == [created, created])
        _ = store.cookieHeader(for: site)
        #expect(store.allCookies.map(\.lastAccessed) == [clock.now, created])
    }

    // MARK: Setting and removing

    @Test func setStoresACookieAsGivenAndRemoveTakesItAway() throws {
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let cookie = Cookie(name: "token", value: "t", domain: ".API.Example.com", path: "/v1", secure: true,
                            created: created)
        #expect(cookie.domain == "api.example.com")
        store.set(cookie)
        #expect(store.allCookies == [cookie])
        #expect(store.cookieHeader(for: url("https://eu.api.example.com/v1/users")) == "token=t")

        var replacement = cookie
        replacement.value = "u"
        replacement.created = clock.now
        store.set(replacement)
        #expect(store.allCookies == [replacement])

        #expect(store.remove(name: "token", domain: "api.example.com", path: "/") == nil)
        #expect(store.remove(cookie)?.value == "u")
        #expect(store.allCookies.isEmpty)
    }

    @Test func settingAnExpiredCookieRemovesItsNamesake() {
        store.set(Cookie(name: "a", value: "1", domain: "example.com"))
        store.set(Cookie(name: "a", value: "1", domain: "example.com", expires: clock.now))
        #expect(store.count == 0)
    }

    @Test func removeAllEmptiesTheStore() {
        store.store(setCookieHeaders: ["a=1", "b=2; Domain=example.com"], for: site)
        store.removeAll()
        #expect(store.allCookies.isEmpty)
        #expect(store.cookieHeader(for: site) == nil)
    }

    @Test func oneStoreServesManyTasksAtOnce() async {
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        let host = url("https://h\(index % 10).example.com/")
                        store.store(setCookieHeaders: ["t\(task)=\(index); Domain=example.com"], for: host)
                        _ = store.cookieHeader(for: host)
                    }
                }
            }
        }
        #expect(store.count == 8)
        #expect(store.cookieHeader(for: site)?.split(separator: ";").count == 8)
    }
}
