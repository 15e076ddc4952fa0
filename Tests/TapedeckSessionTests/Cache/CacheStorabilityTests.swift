import Foundation
import Testing
import TapedeckSession

/// What may be stored (RFC 9111 §3).
@Suite struct CacheStorabilityTests {
    let harness = CacheHarness()

    private func stored(_ response: HTTPResponse, requestHeaders: HTTPHeaders = [:], method: HTTPMethod = .get) -> CachedResponse? {
        harness.receive(response, for: harness.request(method: method, headers: requestHeaders))
        return harness.cache.cachedResponse(for: harness.request(headers: requestHeaders))
    }

    @Test func noStoreInTheResponseStoresNothing() {
        #expect(stored(harness.response(200, ["Cache-Control": "max-age=60, no-store"])) == nil)
    }

    @Test func onlyGETResponsesAreStored() {
        #expect(stored(harness.response(200, ["Cache-Control": "max-age=60"]), method: .post) == nil)
        #expect(stored(harness.response(200, ["Cache-Control": "max-age=60"]), method: .head) == nil)
        #expect(harness.cache.lookup(harness.request(method: .head)).kind == "miss")
    }

    @Test(arguments: [
        ("max-age=60", false), ("public, max-age=60", true), ("s-maxage=60", true), ("max-age=60, must-revalidate", true),
    ])
    func aResponseToAnAuthorizedRequestIsStoredOnlyWhenItSaysSo(cacheControl: String, isStored: Bool) {
        let response = harness.response(200, ["Cache-Control": cacheControl])
        #expect((stored(response, requestHeaders: ["Authorization": "Bearer t"]) != nil) == isStored)
    }

    @Test(arguments: [(206, "max-age=60", false), (500, "", false), (500, "max-age=60", true), (204, "", true),
                      (418, "max-age=60", false), (301, "", true)])
    func statusesAreStoredWhenUnderstoodAndAllowed(status: Int, cacheControl: String, isStored: Bool) {
        let headers: HTTPHeaders = cacheControl.isEmpty ? [:] : ["Cache-Control": cacheControl]
        #expect((stored(harness.response(status, headers)) != nil) == isStored)
    }

    @Test func hopByHopFieldsAreNotStored() throws {
        let response = harness.response(200, [
            "Cache-Control": "max-age=60", "Connection": "keep-alive, X-Hop", "Keep-Alive": "timeout=5",
            "Transfer-Encoding": "chunked", "X-Hop": "1", "X-End": "2",
        ])
        let cached = try #require(stored(response))
        #expect(cached.headers.map(\.name) == ["Cache-Control", "X-End"])
    }

    @Test func aBodyThatWentToAFileIsNotStored() {
        var response = harness.response(200, ["Cache-Control": "max-age=60"])
        response.body = .file(URL(fileURLWithPath: "/tmp/x"), byteCount: 4)
        #expect(stored(response) == nil)
    }

    @Test func theStoredResponseRemembersItsRequest() throws {
        let cached = try #require(stored(harness.response(200, ["Cache-Control": "max-age=60"])))
        #expect(cached.statusCode == 200)
        #expect(cached.reasonPhrase == "OK")
        #expect(cached.body == Data("body".utf8))
        #expect(cached.url == CacheHarness.url("/a"))
        #expect(cached.requestMethod == .get)
        #expect(cached.responseTime == harness.clock.now)
    }

    @Test func theFragmentDoesNotTellURLsApart() {
        harness.prime(["Cache-Control": "max-age=60"])
        let withFragment = HTTPRequest(url: URL(string: "http://127.0.0.1:8080/a#section")!)
        #expect(harness.cache.lookup(withFragment).kind == "hit")
    }
}
