import Foundation
import Testing
import TapedeckCore
@testable import TapedeckCassette

/// `queryMayNeedRedaction` lets a replayed request skip parsing its query when no parameter could be secret. It may
/// say "maybe" too often, never too rarely: whenever the full parse finds a secret or changes the URL, it says yes.
@Suite struct QueryNameScanTests {
    /// Whether the full, decoding path would find a secret in `url`'s query or rewrite it.
    private func fullPathFindsSomething(_ url: String, _ redaction: Redaction) -> Bool {
        let parts = URLParts(url)
        guard let query = parts.query else { return false }
        if redaction.redactPairs(String(query)) != query { return true }
        return parts.decodedQueryPairs.contains { redaction.isSensitiveParameter($0.name, value: $0.value) }
    }

    @Test func plainQueriesAreSkipped() {
        for url in ["http://127.0.0.1:8000/v1/items/7?page=3&sort=name", "https://a.example/x?q=swift&limit=20#top",
                    "https://a.example/x", "https://a.example/x?", "https://a.example/x?flag&&", "/search?q=a?b"] {
            #expect(!Redaction.default.queryMayNeedRedaction(url), "\(url)")
        }
    }

    @Test func secretsEncodedNamesAndGraphQLParametersAreNot() {
        for url in ["https://a.example/x?page=2&api_key=abcdefgh1234", "https://a.example/x?ACCESS_TOKEN=abcdefgh1234",
                    "https://a.example/x?api%5Fkey=abcdefgh1234", "https://a.example/x?api+key=v",
                    "https://a.example/x?variables=%7B%7D", "https://a.example/x?a=1?token=abcdefgh1234",
                    "https://a.example/x?clé=v", "https://u:p@a.example/x?password"] {
            #expect(Redaction.default.queryMayNeedRedaction(url), "\(url)")
        }
    }

    @Test func aQueryParameterFilterAlwaysTakesTheFullPath() {
        let redaction = Redaction(filters: [.queryParameter("page", replacement: "PAGE")])
        #expect(redaction.queryMayNeedRedaction("https://a.example/x?page=2"))
        #expect(!Redaction.disabled.queryMayNeedRedaction("https://a.example/x?api_key=abcdefgh1234"))
    }

    /// Random queries from names that are plain, secret, secret only as a fragment, position tokens, encoded, or
    /// GraphQL's, with `?`, `#`, `=` and `&` in odd places: the scan never says no where the full path finds something.
    @Test func theScanNeverMissesWhatTheFullPathFinds() {
        let names = ["page", "sort", "q", "api_key", "apiKey", "token", "access_token", "my_secret_thing", "password",
                     "pageToken", "next_page_token", "variables", "extensions", "api%5Fkey", "to%6Ben", "a+b", "Token",
                     "SIG", "signature", "auth", "authorization", "x", "", "clé", "session", "code", "key"]
        let values = ["1", "abcdefgh12345678", "true", "", "a=b", "%7B%22password%22%3A%22hunter22hunter%22%7D",
                      "{\"token\":\"abcdefgh12345678\"}", "bearer", "12"]
        let glue = ["&", "&", "&", "?", "#", "&&"]
        var generator = SeededGenerator(seed: 29)
        var maybes = 0
        for _ in 0..<3_000 {
            var query = ""
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                if index > 0 { query += glue.randomElement(using: &generator)! }
                query += names.randomElement(using: &generator)!
                if Int.random(in: 0..<5, using: &generator) > 0 { query += "=" + values.randomElement(using: &generator)! }
            }
            let url = "https://a.example/p?" + query
            for redaction in [Redaction.default, Redaction.disabled] {
                let scan = redaction.queryMayNeedRedaction(url)
                if scan { maybes += 1 }
                #expect(scan || !fullPathFindsSomething(url, redaction), "\(url)")
            }
        }
        #expect(maybes > 0 && maybes < 6_000)
    }
}
