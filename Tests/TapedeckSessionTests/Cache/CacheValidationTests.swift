import Foundation
import Testing
import TapedeckSession

/// Conditional requests and 304 handling (RFC 9111 §4.3).
@Suite struct CacheValidationTests {
    let harness = CacheHarness()

    @Test func aNoCacheResponseIsValidatedWithItsETagAndA304AnswersWithTheStoredBody() throws {
        harness.prime(["Cache-Control": "no-cache", "ETag": #""v1""#, "X-Version": "1", "Content-Type": "text/plain"],
                      body: "stored body")
        let lookup = harness.lookup()
        let conditional = try #require(lookup.conditionalRequest)
        #expect(conditional.headers["If-None-Match"] == #""v1""#)
        #expect(conditional.headers["If-Modified-Since"] == nil)
        #expect(conditional.url == CacheHarness.url("/a"))

        harness.advance(5)
        let answer = harness.receive(harness.response(304, ["ETag": #""v1""#, "X-Version": "2"], body: ""),
                                     for: harness.request(), after: lookup)
        #expect(answer.statusCode == 200)
        #expect(answer.text == "stored body")
        #expect(answer.headers["X-Version"] == "2")
        #expect(answer.headers["Content-Type"] == "text/plain")
        let stored = try #require(harness.cache.cachedResponse(for: harness.request()))
        #expect(stored.headers["X-Version"] == "2")
        #expect(stored.responseTime == harness.clock.now)
        #expect(harness.lookup().kind == "validate")  // still no-cache
    }

    @Test func aStaleResponseWithLastModifiedIsValidatedWithIfModifiedSince() throws {
        let lastModified = harness.httpDate(-10)
        harness.prime(["Cache-Control": "max-age=60", "Last-Modified": lastModified])
        harness.advance(61)
        let conditional = try #require(harness.lookup().conditionalRequest)
        #expect(conditional.headers["If-Modified-Since"] == lastModified)
        #expect(conditional.headers["If-None-Match"] == nil)
    }

    @Test func bothValidatorsAreSentWhenBothAreStored() throws {
        harness.prime(["Cache-Control": "no-cache", "ETag": #"W/"w""#, "Last-Modified": harness.httpDate(-10)])
        let conditional = try #require(harness.lookup().conditionalRequest)
        #expect(conditional.headers["If-None-Match"] == #"W/"w""#)
        #expect(conditional.headers["If-Modified-Since"] != nil)
    }

    @Test func a304FreshensTheStoredResponseWithItsNewLifetime() throws {
        harness.prime(["Cache-Control": "max-age=60", "ETag": #""v1""#, "Content-Length": "4"])
        harness.advance(120)
        let lookup = harness.lookup()
        #expect(lookup.kind == "validate")
        let answer = harness.receive(
            harness.response(304, ["ETag": #""v1""#, "Cache-Control": "max-age=300", "Date": harness.httpDate(), "Content-Length": "0"],
                             body: ""),
            for: harness.request(), after: lookup)
        #expect(answer.headers["Cache-Control"] == "max-age=300")
        #expect(answer.headers["Content-Length"] == "4")
        harness.advance(299)
        #expect(harness.lookup().hit?.headers["Age"] == "299")
    }

    @Test func a304WithoutValidatorsUpdatesTheResponseThatWasValidated() {
        harness.prime(["Cache-Control": "no-cache", "ETag": #""v1""#], body: "kept")
        let lookup = harness.lookup()
        let answer = harness.receive(harness.response(304, ["X-New": "yes"], body: ""), for: harness.request(), after: lookup)
        #expect(answer.statusCode == 200)
        #expect(answer.text == "kept")
        #expect(answer.headers["X-New"] == "yes")
    }

    @Test func a304ForAnotherRepresentationDropsTheStoredOne() {
        harness.prime(["Cache-Control": "no-cache", "ETag": #""v1""#])
        let lookup = harness.lookup()
        let answer = harness.receive(harness.response(304, ["ETag": #""v2""#], body: ""), for: harness.request(), after: lookup)
        #expect(answer.statusCode == 304)
        #expect(harness.cache.cachedResponse(for: harness.request()) == nil)
    }

    @Test func a200DuringValidationReplacesTheStoredResponse() {
        harness.prime(["Cache-Control": "no-cache", "ETag": #""v1""#], body: "old")
        let lookup = harness.lookup()
        let answer = harness.receive(harness.response(200, ["Cache-Control": "max-age=60", "ETag": #""v2""#], body: "new"),
                                     for: harness.request(), after: lookup)
        #expect(answer.text == "new")
        #expect(harness.lookup().hit?.text == "new")
    }

    @Test func theClientsOwnConditionalRequestGetsThe304AndStillFreshensTheStoredResponse() throws {
        harness.prime(["Cache-Control": "max-age=10", "ETag": #""v1""#])
        let request = harness.request(headers: ["If-None-Match": #""v1""#])
        let lookup = harness.cache.lookup(request)
        #expect(lookup.kind == "miss")
        harness.advance(20)
        let answer = harness.receive(harness.response(304, ["ETag": #""v1""#, "Cache-Control": "max-age=100"], body: ""),
                                     for: request, after: lookup)
        #expect(answer.statusCode == 304)
        #expect(harness.lookup().hit?.headers["Cache-Control"] == "max-age=100")
    }

    @Test func aStaleResponseWithoutValidatorsIsAMiss() {
        harness.prime(["Cache-Control": "max-age=1"])
        harness.advance(2)
        #expect(harness.lookup().kind == "miss")
    }
}

/// Unsafe methods invalidate what they may have changed (RFC 9111 §4.4).
@Suite struct CacheInvalidationTests {
    let harness = CacheHarness()

    init() {
        for path in ["/a", "/b", "/c"] { harness.prime(path, ["Cache-Control": "max-age=600"]) }
    }

    @Test func aPOSTInvalidatesItsTargetAndSameOriginLocations() {
        harness.receive(harness.response(201, ["Location": "/b", "Content-Location": "http://elsewhere.test/c"]),
                        for: harness.request("/a", method: .post))
        #expect(harness.lookup("/a").kind == "miss")
        #expect(harness.lookup("/b").kind == "miss")
        #expect(harness.lookup("/c").kind == "hit")
    }

    @Test func contentLocationOfTheSameOriginIsInvalidatedToo() {
        harness.receive(harness.response(200, ["Content-Location": "http://127.0.0.1:8080/c"]),
                        for: harness.request("/a", method: .put))
        #expect(harness.lookup("/c").kind == "miss")
        #expect(harness.lookup("/b").kind == "hit")
    }

    @Test(arguments: [HTTPMethod.put, .delete, .patch, "PROPPATCH"])
    func otherUnsafeMethodsInvalidate(method: HTTPMethod) {
        harness.receive(harness.response(204), for: harness.request("/a", method: method))
        #expect(harness.lookup("/a").kind == "miss")
    }

    @Test func anErrorResponseInvalidatesNothing() {
        harness.receive(harness.response(500), for: harness.request("/a", method: .post))
        harness.receive(harness.response(404), for: harness.request("/a", method: .delete))
        #expect(harness.lookup("/a").kind == "hit")
    }

    @Test func safeMethodsInvalidateNothing() {
        harness.receive(harness.response(200), for: harness.request("/a", method: .options))
        #expect(harness.lookup("/a").kind == "hit")
    }

    @Test func removingByHandAndRemovingEverything() {
        harness.cache.removeCachedResponse(for: harness.request("/a"))
        #expect(harness.lookup("/a").kind == "miss")
        #expect(harness.lookup("/b").kind == "hit")
        harness.cache.removeAllCachedResponses()
        #expect(harness.lookup("/b").kind == "miss")
        #expect(harness.cache.currentMemoryUsage == 0)
    }
}
