import Foundation
import Testing
import TapedeckSession

/// NSURLRequest's four cache policies.
@Suite struct CachePolicyTests {
    let harness = CacheHarness()

    @Test func reloadIgnoringLocalCacheDataAlwaysLoadsAndStillStores() {
        harness.prime(["Cache-Control": "max-age=60"], body: "old")
        #expect(harness.lookup(policy: .reloadIgnoringLocalCacheData).kind == "miss")
        harness.receive(harness.response(200, ["Cache-Control": "max-age=60"], body: "new"), for: harness.request())
        #expect(harness.lookup().hit?.text == "new")
    }

    @Test func returnCacheDataElseLoadAnswersWithAStaleResponseAndLoadsWhenNothingIsStored() {
        harness.prime(["Cache-Control": "max-age=1, must-revalidate", "ETag": #""v1""#], body: "stale")
        harness.advance(3600)
        #expect(harness.lookup().kind == "validate")
        let hit = harness.lookup(policy: .returnCacheDataElseLoad).hit
        #expect(hit?.text == "stale")
        #expect(hit?.headers["Age"] == "3600")
        #expect(harness.lookup("/other", policy: .returnCacheDataElseLoad).kind == "miss")
    }

    @Test func returnCacheDataDontLoadAnswersFromTheCacheOrIsUnavailable() {
        harness.prime(["Cache-Control": "no-cache"], body: "kept")
        #expect(harness.lookup(policy: .returnCacheDataDontLoad).hit?.text == "kept")
        #expect(harness.lookup("/other", policy: .returnCacheDataDontLoad).kind == "unavailable")
        let post = harness.request(method: .post)
        #expect(harness.cache.lookup(post, policy: .returnCacheDataDontLoad).kind == "unavailable")
    }

    @Test func useProtocolCachePolicyIsTheDefault() {
        harness.prime(["Cache-Control": "max-age=60"])
        #expect(harness.cache.lookup(harness.request()).kind == "hit")
    }

    @Test func theLookupSaysWhatToSend() throws {
        let request = harness.request()
        #expect(CacheLookup.miss.requestToSend(for: request)?.url == request.url)
        #expect(CacheLookup.unavailable.requestToSend(for: request) == nil)
        harness.prime(["ETag": #""a""#, "Cache-Control": "no-cache"])
        let lookup = harness.cache.lookup(request)
        #expect(lookup.requestToSend(for: request)?.headers["If-None-Match"] == #""a""#)
    }
}

/// The request's own Cache-Control directives (RFC 9111 §5.2.1).
@Suite struct CacheRequestDirectiveTests {
    let harness = CacheHarness()

    init() {
        harness.prime(["Cache-Control": "max-age=60", "ETag": #""v1""#])
    }

    @Test func maxAgeRefusesAResponseOlderThanIt() {
        harness.advance(20)
        #expect(harness.lookup(headers: ["Cache-Control": "max-age=30"]).kind == "hit")
        #expect(harness.lookup(headers: ["Cache-Control": "max-age=10"]).kind == "validate")
        #expect(harness.lookup(headers: ["Cache-Control": "max-age=0"]).kind == "validate")
    }

    @Test func minFreshWantsThatMuchFreshnessLeft() {
        harness.advance(20)  // 40 s left
        #expect(harness.lookup(headers: ["Cache-Control": "min-fresh=30"]).kind == "hit")
        #expect(harness.lookup(headers: ["Cache-Control": "min-fresh=50"]).kind == "validate")
    }

    @Test func maxStaleAcceptsAStaleResponseWithinItsLimit() {
        harness.advance(80)  // stale by 20 s
        #expect(harness.lookup().kind == "validate")
        #expect(harness.lookup(headers: ["Cache-Control": "max-stale=30"]).hit?.headers["Age"] == "80")
        #expect(harness.lookup(headers: ["Cache-Control": "max-stale=10"]).kind == "validate")
        #expect(harness.lookup(headers: ["Cache-Control": "max-stale"]).kind == "hit")
    }

    @Test func mustRevalidateForbidsServingStale() {
        harness.prime("/strict", ["Cache-Control": "max-age=60, must-revalidate", "ETag": #""s""#])
        harness.advance(80)
        #expect(harness.lookup("/strict", headers: ["Cache-Control": "max-stale"]).kind == "validate")
    }

    @Test func noCacheAndPragmaNoCacheValidateEvenAFreshResponse() throws {
        let lookup = harness.lookup(headers: ["Cache-Control": "no-cache"])
        #expect(try #require(lookup.conditionalRequest).headers["If-None-Match"] == #""v1""#)
        #expect(harness.lookup(headers: ["Pragma": "no-cache"]).kind == "validate")
        // Cache-Control wins over Pragma when both are present.
        #expect(harness.lookup(headers: ["Pragma": "no-cache", "Cache-Control": "max-stale"]).kind == "hit")
    }

    @Test func onlyIfCachedNeverReachesTheNetwork() {
        #expect(harness.lookup(headers: ["Cache-Control": "only-if-cached"]).kind == "hit")
        #expect(harness.lookup("/none", headers: ["Cache-Control": "only-if-cached"]).kind == "unavailable")
        harness.advance(61)
        #expect(harness.lookup(headers: ["Cache-Control": "only-if-cached"]).kind == "unavailable")
        #expect(harness.lookup(headers: ["Cache-Control": "only-if-cached, max-stale"]).kind == "hit")
    }

    @Test func noStoreInTheRequestStoresNothing() {
        harness.receive(harness.response(200, ["Cache-Control": "max-age=60"], path: "/b"),
                        for: harness.request("/b", headers: ["Cache-Control": "no-store"]))
        #expect(harness.lookup("/b").kind == "miss")
    }

    @Test func aRequestWithItsOwnPreconditionsPassesThrough() {
        #expect(harness.lookup(headers: ["If-None-Match": #""v0""#]).kind == "miss")
    }
}
