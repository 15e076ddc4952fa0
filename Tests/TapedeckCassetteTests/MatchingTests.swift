import Foundation
import Testing
import TapedeckCassette

@Suite struct MatchingTests {
    @Test func defaultMatchingIgnoresQueryOrderButNotValues() {
        var player = CassettePlayer(cassette: Cassette(interactions: [
            interaction("GET", "http://127.0.0.1:8080/search?a=1&b=2", responseBody: "first"),
        ]))
        #expect(playedBody(player.play(live("GET", "http://127.0.0.1:8080/search?b=2&a=1#frag"))) == "first")
        var other = CassettePlayer(cassette: player.cassette)
        #expect(playedBody(other.play(live("POST", "http://127.0.0.1:8080/search?a=1&b=2"))) == nil)
        #expect(playedBody(other.play(live("GET", "http://127.0.0.1:8080/search?a=1&b=3"))) == nil)
        #expect(playedBody(other.play(live("GET", "HTTP://127.0.0.1:8080/search?a=1&b=2"))) == "first")
    }

    @Test func identicalRequestsReplayInOrderAndRepeatsAreOptIn() {
        let cassette = Cassette(interactions: [
            interaction("GET", "http://h/n", responseBody: "1"),
            interaction("GET", "http://h/other", responseBody: "x"),
            interaction("GET", "http://h/n", responseBody: "2"),
        ])
        var strict = CassettePlayer(cassette: cassette)
        #expect(playedBody(strict.play(live("GET", "http://h/n"))) == "1")
        #expect(playedBody(strict.play(live("GET", "http://h/n"))) == "2")
        guard case .failure(.unmatchedRequest(let report)) = strict.play(live("GET", "http://h/n")) else {
            Issue.record("a third identical request must not replay")
            return
        }
        #expect(report.exhausted == [0, 2])
        #expect(report.description.contains("allowPlaybackRepeats"))
        #expect(strict.unplayedIndices == [1])

        var repeating = CassettePlayer(cassette: cassette, allowPlaybackRepeats: true)
        _ = repeating.play(live("GET", "http://h/n"))
        _ = repeating.play(live("GET", "http://h/n"))
        #expect(playedBody(repeating.play(live("GET", "http://h/n"))) == "2")
    }

    @Test func nearMissReportRanksAndExplains() {
        let cassette = Cassette(interactions: [
            interaction("GET", "http://127.0.0.1:1/users?page=1"),
            interaction("GET", "http://127.0.0.1:1/users?page=1"),
            interaction("DELETE", "http://127.0.0.1:1/users/7"),
            interaction("GET", "http://example.test/unrelated/path"),
        ])
        var player = CassettePlayer(cassette: cassette, name: "Cassettes/users.json")
        guard case .failure(let error) = player.play(live("GET", "http://127.0.0.1:1/users?page=2")),
              case .unmatchedRequest(let report) = error else {
            Issue.record("expected a miss")
            return
        }
        #expect(report.candidates.map(\.index) == [0, 2, 3])
        #expect(report.candidates[0].differences == [#"query page: recorded "1", request "2""#])
        let message = error.description
        #expect(message.contains("Cassettes/users.json"))
        #expect(message.contains("GET http://127.0.0.1:1/users?page=2"))
        #expect(message.contains("TAPEDECK_RECORD_MODE=newEpisodes"))
        #expect((error as NSError).code == 5)
    }

    @Test func headerAndBodyRules() {
        let cassette = Cassette(interactions: [
            interaction("POST", "http://h/a", headers: ["X-Tenant": "a"], body: "one", responseBody: "A"),
            interaction("POST", "http://h/a", headers: ["X-Tenant": "b"], body: "one", responseBody: "B"),
            interaction("POST", "http://h/a", headers: ["X-Tenant": "b"], body: "two", responseBody: "C"),
        ])
        var player = CassettePlayer(cassette: cassette, matching: [.method, .url, .headers("x-tenant"), .body])
        #expect(playedBody(player.play(live("POST", "http://h/a", headers: ["X-Tenant": "b"], body: "two"))) == "C")
        #expect(playedBody(player.play(live("POST", "http://h/a", headers: ["X-Tenant": "b"], body: "one"))) == "B")
        guard case .failure(.unmatchedRequest(let report)) = player.play(live("POST", "http://h/a", headers: ["X-Tenant": "c"], body: "one")) else {
            Issue.record("expected a miss")
            return
        }
        #expect(report.candidates.first?.differences.contains { $0.contains("header x-tenant") } == true)
    }

    @Test func hostPathAndQueryRulesIndependently() {
        let cassette = Cassette(interactions: [interaction("GET", "http://a.test:8080/p?x=1", responseBody: "hit")])
        var byPath = CassettePlayer(cassette: cassette, matching: [.path])
        #expect(playedBody(byPath.play(live("POST", "http://b.test/p?y=2"))) == "hit")
        var byHost = CassettePlayer(cassette: cassette, matching: [.host, .query])
        #expect(playedBody(byHost.play(live("GET", "http://A.TEST:8080/other?x=1"))) == "hit")
        var byHostWrongPort = CassettePlayer(cassette: cassette, matching: [.host])
        #expect(playedBody(byHostWrongPort.play(live("GET", "http://a.test:9090/p?x=1"))) == nil)
    }

    @Test func jsonSemanticMatching() {
        let cassette = Cassette(interactions: [
            interaction("POST", "http://h/j", body: #"{"a":1,"b":{"c":[1,2]},"nonce":"x1"}"#, responseBody: "json"),
        ])
        var player = CassettePlayer(cassette: cassette, matching: [.method, .url, .json(ignoring: ["nonce"])])
        #expect(playedBody(player.play(live("POST", "http://h/j", body: #"{"nonce":"zz","b":{"c":[1,2]},"a":1.0}"#))) == "json")
        var strict = CassettePlayer(cassette: cassette, matching: [.method, .url, .json()])
        guard case .failure(.unmatchedRequest(let report)) = strict.play(live("POST", "http://h/j", body: #"{"a":1,"b":{"c":[2,1]},"nonce":"x1"}"#)) else {
            Issue.record("array order matters")
            return
        }
        #expect(report.candidates[0].differences == ["json body differs at b.c.0"])
    }

    @Test func formSemanticMatching() {
        let cassette = Cassette(interactions: [
            interaction("POST", "http://h/f", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "a=1&b=hello+world", responseBody: "form"),
        ])
        var player = CassettePlayer(cassette: cassette, matching: [.method, .url, .form])
        #expect(playedBody(player.play(live("POST", "http://h/f", body: "b=hello%20world&a=1"))) == "form")
        var again = CassettePlayer(cassette: cassette, matching: [.method, .url, .form])
        #expect(playedBody(again.play(live("POST", "http://h/f", body: "a=2&b=hello+world"))) == nil)
    }

    @Test func multipartMatchingIgnoresTheBoundary() {
        func body(_ boundary: String, file: String) -> String {
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nvalue\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n\(file)\r\n"
                + "--\(boundary)--\r\n"
        }
        let cassette = Cassette(interactions: [
            interaction("POST", "http://h/m", headers: ["Content-Type": "multipart/form-data; boundary=AAA"], body: body("AAA", file: "contents"), responseBody: "mp"),
        ])
        var player = CassettePlayer(cassette: cassette, matching: [.method, .url, .multipart])
        #expect(playedBody(player.play(live("POST", "http://h/m", headers: ["Content-Type": "multipart/form-data; boundary=\"B-42\""], body: body("B-42", file: "contents")))) == "mp")
        var changed = CassettePlayer(cassette: cassette, matching: [.method, .url, .multipart])
        guard case .failure(.unmatchedRequest(let report)) = changed.play(live("POST", "http://h/m", headers: ["Content-Type": "multipart/form-data; boundary=C"], body: body("C", file: "other"))) else {
            Issue.record("different file contents must not match")
            return
        }
        #expect(report.candidates[0].differences == ["multipart body: part 1 (upload) differs in content"])
    }

    @Test func customRules() {
        let cassette = Cassette(interactions: [
            interaction("GET", "http://h/v1/items", responseBody: "v1"),
        ])
        let ignoreVersion = MatchRule.custom("path without version") { live, recorded in
            live.url.replacingOccurrences(of: "/v2/", with: "/v1/") == recorded.url
        }
        var player = CassettePlayer(cassette: cassette, matching: [.method, ignoreVersion])
        #expect(playedBody(player.play(live("GET", "http://h/v2/items"))) == "v1")
    }

    @Test func recordedInteractionsJoinTheIndex() {
        var player = CassettePlayer(cassette: Cassette())
        player.record(interaction("GET", "http://h/new", responseBody: "n"))
        #expect(player.unplayedIndices.isEmpty)
        player.rewind()
        #expect(playedBody(player.play(live("GET", "http://h/new"))) == "n")
    }
}
