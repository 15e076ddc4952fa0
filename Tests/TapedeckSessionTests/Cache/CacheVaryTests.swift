import Foundation
import Testing
import TapedeckSession

/// Vary selects among stored responses by request header values (RFC 9111 §4.1).
@Suite struct CacheVaryTests {
    let harness = CacheHarness()

    private func json(_ accept: String?) -> HTTPHeaders { accept.map { ["Accept": $0] } ?? [:] }

    @Test func aVariedResponseAnswersOnlyTheSameHeaderValues() throws {
        harness.prime(["Cache-Control": "max-age=60", "Vary": "Accept"], body: "json", requestHeaders: json("application/json"))
        #expect(harness.lookup(headers: json("application/json")).hit?.text == "json")
        #expect(harness.lookup(headers: ["accept": "application/json"]).kind == "hit")
        #expect(harness.lookup(headers: json("text/html")).kind == "miss")
        #expect(harness.lookup(headers: json(nil)).kind == "miss")
        let stored = try #require(harness.cache.cachedResponse(for: harness.request(headers: json("application/json"))))
        #expect(stored.varyingRequestHeaders["Accept"] == "application/json")
    }

    @Test func variantsAreStoredSideBySide() {
        harness.prime(["Cache-Control": "max-age=60", "Vary": "Accept"], body: "json", requestHeaders: json("application/json"))
        harness.prime(["Cache-Control": "max-age=60", "Vary": "Accept"], body: "html", requestHeaders: json("text/html"))
        harness.prime(["Cache-Control": "max-age=60", "Vary": "Accept"], body: "none", requestHeaders: json(nil))
        #expect(harness.lookup(headers: json("application/json")).hit?.text == "json")
        #expect(harness.lookup(headers: json("text/html")).hit?.text == "html")
        #expect(harness.lookup(headers: json(nil)).hit?.text == "none")
        harness.prime(["Cache-Control": "max-age=60", "Vary": "Accept"], body: "html 2", requestHeaders: json("text/html"))
        #expect(harness.lookup(headers: json("text/html")).hit?.text == "html 2")
        #expect(harness.lookup(headers: json("application/json")).hit?.text == "json")
    }

    @Test func severalVaryFieldsAndRepeatedRequestFieldsAllCount() {
        let headers: HTTPHeaders = HTTPHeaders([("Accept", "a"), ("Accept", "b"), ("Accept-Language", "en")])
        harness.prime(["Cache-Control": "max-age=60", "Vary": "accept, Accept-Language"], requestHeaders: headers)
        #expect(harness.lookup(headers: headers).kind == "hit")
        #expect(harness.lookup(headers: HTTPHeaders([("Accept", "a"), ("Accept-Language", "en")])).kind == "miss")
        #expect(harness.lookup(headers: HTTPHeaders([("Accept", "a"), ("Accept", "b"), ("Accept-Language", "de")])).kind == "miss")
    }

    @Test func varyStarIsNeverStored() {
        harness.prime(["Cache-Control": "max-age=60", "Vary": "*"])
        #expect(harness.lookup().kind == "miss")
        #expect(harness.cache.cachedResponse(for: harness.request()) == nil)
    }
}
