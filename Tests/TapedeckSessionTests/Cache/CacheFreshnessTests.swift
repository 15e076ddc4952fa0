import Foundation
import Testing
@testable import TapedeckSession

/// RFC 9111 §4.2: freshness lifetime and current age, judged against a clock the tests move.
@Suite struct CacheFreshnessTests {
    let harness = CacheHarness()

    @Test func maxAgeKeepsAResponseFreshForThatManySeconds() {
        harness.prime(["Cache-Control": "max-age=60"], body: "first")
        #expect(harness.lookup().hit?.text == "first")
        harness.advance(59)
        let hit = harness.lookup().hit
        #expect(hit?.statusCode == 200)
        #expect(hit?.headers["Age"] == "59")
        harness.advance(2)
        #expect(harness.lookup().kind == "miss")  // stale, and without a validator there is nothing to validate
    }

    @Test func expiresCountsFromTheDateHeader() {
        harness.prime(["Date": harness.httpDate(), "Expires": harness.httpDate(100)])
        harness.advance(99)
        #expect(harness.lookup().kind == "hit")
        harness.advance(2)
        #expect(harness.lookup().kind == "miss")
    }

    @Test(arguments: ["0", "-1", "yesterday"])
    func anExpiresThatIsNotADateMeansAlreadyExpired(expires: String) {
        harness.prime(["Date": harness.httpDate(), "Expires": expires])
        #expect(harness.lookup().kind == "miss")
        #expect(harness.cache.cachedResponse(for: harness.request()) != nil)
    }

    @Test func maxAgeWinsOverExpires() {
        harness.prime(["Date": harness.httpDate(), "Expires": harness.httpDate(10), "Cache-Control": "max-age=100"])
        harness.advance(50)
        #expect(harness.lookup().kind == "hit")
    }

    @Test func theAgeHeaderCountsTowardsTheCurrentAge() {
        harness.prime(["Cache-Control": "max-age=60", "Age": "50"])
        #expect(harness.lookup().hit?.headers.values(for: "Age") == ["50"])
        harness.advance(9)
        #expect(harness.lookup().hit?.headers["Age"] == "59")
        harness.advance(2)
        #expect(harness.lookup().kind == "miss")
    }

    @Test func aDateInThePastIsApparentAge() {
        harness.prime(["Cache-Control": "max-age=60", "Date": harness.httpDate(-30)])
        #expect(harness.lookup().hit?.headers["Age"] == "30")
        harness.advance(31)
        #expect(harness.lookup().kind == "miss")
    }

    @Test func theTimeTheRequestWasInFlightIsAddedToAge() {
        let request = harness.request()
        harness.receive(harness.response(200, ["Cache-Control": "max-age=60", "Age": "10"]), for: request, delay: 20)
        #expect(harness.lookup().hit?.headers["Age"] == "30")  // corrected_age_value = 10 + 20
        harness.advance(31)
        #expect(harness.lookup().kind == "miss")
    }

    @Test func sharedMaxAgeDoesNotApplyToAPrivateCache() {
        harness.prime(["Cache-Control": "s-maxage=600"])
        #expect(harness.lookup().kind == "miss")
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() throws {
        harness.prime(["Date": harness.httpDate(), "Last-Modified": harness.httpDate(-1000)])
        harness.advance(99)
        #expect(harness.lookup().kind == "hit")
        harness.advance(2)
        let conditional = try #require(harness.lookup().conditionalRequest)
        #expect(conditional.headers["If-Modified-Since"] == harness.httpDate(-1101))
    }

    @Test func heuristicFreshnessIsCappedAtADay() {
        harness.prime(["Date": harness.httpDate(), "Last-Modified": harness.httpDate(-365 * 86_400)])
        harness.advance(86_399)
        #expect(harness.lookup().kind == "hit")
        harness.advance(2)
        #expect(harness.lookup().kind == "validate")
    }

    @Test func heuristicsApplyOnlyToHeuristicallyCacheableStatusesOrPublicResponses() {
        let lastModified = harness.httpDate(-1000)
        harness.receive(harness.response(404, ["Last-Modified": lastModified], path: "/gone"), for: harness.request("/gone"))
        harness.receive(harness.response(302, ["Last-Modified": lastModified, "Location": "/x"], path: "/moved"),
                        for: harness.request("/moved"))
        harness.receive(harness.response(302, ["Last-Modified": lastModified, "Location": "/x", "Cache-Control": "public"],
                                         path: "/public"), for: harness.request("/public"))
        #expect(harness.lookup("/gone").hit?.statusCode == 404)
        #expect(harness.lookup("/moved").kind == "miss")
        #expect(harness.cache.cachedResponse(for: harness.request("/moved")) == nil)
        #expect(harness.lookup("/public").hit?.statusCode == 302)
    }

    @Test func anInvalidMaxAgeMakesTheResponseStale() {
        harness.prime(["Cache-Control": "max-age=soon", "Expires": harness.httpDate(1000), "Date": harness.httpDate()])
        #expect(harness.lookup().kind == "miss")
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ])
    func theThreeHTTPDateFormsParse(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test(arguments: ["", "0", "Sun, 06 Nov 1994", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 24:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT"])
    func malformedHTTPDatesDoNotParse(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func cacheControlDirectivesParseCaseInsensitivelyWithQuotesAndSeveralFields() {
        let directives = CacheControl(["Cache-Control": #"Max-Age="120", private="Set-Cookie, X-A""#,
                                       "cache-control": "MUST-REVALIDATE, max-age=5"])
        #expect(directives.maxAge == 120)
        #expect(directives.isPrivate)
        #expect(directives.mustRevalidate)
        #expect(!directives.noCache)
        #expect(CacheControl(["Cache-Control": "max-age=99999999999999"]).maxAge == 2_147_483_648)
    }
}
