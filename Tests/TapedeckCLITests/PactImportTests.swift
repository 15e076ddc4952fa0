import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore
import TapedeckTestSupport

/// Pact in: `PactImport` (v2, v3, v4 contracts as cassettes), `PactVerification` (recordings against a contract) and
/// the refusals, named by JSON path.
@Suite struct PactImportTests {
    static func exported() -> Data {
        CassetteJSON.serialize(PactExportTests.contract().json)
    }

    @Test func anExportedContractReadsBackAsTheSameExchanges() throws {
        let pact = try PactImport.read(Self.exported())
        #expect(pact.version == 3 && pact.consumer == "web" && pact.provider == "users-api")
        let cassette = pact.cassette(recordedAt: Date(timeIntervalSince1970: 0))
        let original = PactExportTests.cassette.interactions.filter { $0.response != nil }
        #expect(cassette.interactions.count == original.count)
        for (read, recorded) in zip(cassette.interactions, original) {
            #expect(read.request.method == recorded.request.method)
            #expect(read.response?.statusCode == recorded.response?.statusCode)
            let readBody = read.response?.body.inlineData ?? Data(), recordedBody = recorded.response?.body.inlineData ?? Data()
            if let json = CassetteJSON.parseBody(recordedBody) {
                #expect(CassetteJSON.parseBody(readBody) == json, "\(read.request.summary)")
            } else {
                #expect(readBody == recordedBody, "\(read.request.summary)")
            }
        }
        #expect(cassette.interactions[3].response?.body.inlineData == PactExportTests.png, "binary bodies come back from base64")
        #expect(cassette.interactions[0].request.url == "http://localhost/users?tag=a&tag=b&page=1")
        #expect(cassette.interactions[2].request.url == "http://localhost/files/read%20me.txt")
    }

    @Test func recordingsHonourTheirOwnContractAndAChangeIsNamed() throws {
        let pact = try PactImport.read(Self.exported())
        let report = try PactVerification.check(PactExportTests.cassette, against: pact) { $0.inlineData ?? Data() }
        #expect(report.passed, "\(report.outcomes.filter { !$0.passed })")
        #expect(report.outcomes.map(\.recordedIndex) == [0, 1, 2, 3, 4, 6, 7], "repeats pair up in order; #5 failed in transport")
        #expect(report.undescribed == [5])

        var changed = PactExportTests.cassette
        guard case .response(var response) = changed.interactions[1].outcome else { return }
        response.body = Fixtures.json(#"{"id":"2","name":"Rob"}"#)
        changed.interactions[1].outcome = .response(response)
        let broken = try PactVerification.check(changed, against: pact) { $0.inlineData ?? Data() }
        #expect(!broken.passed)
        // The id is a whole-number id, so the contract asks for an integer; the name is asked for as recorded.
        #expect(broken.outcomes[1].problems == [#"response $.id: "2" does not match the rule"#, #"response $.name: expected "Bob", got "Rob""#])
    }

    @Test func version2And4ContractsAreRead() throws {
        let v2 = #"""
            {"consumer": {"name": "a"}, "provider": {"name": "b"}, "metadata": {"pact-specification": {"version": "2.0.0"}},
             "interactions": [{"description": "d", "request": {"method": "get", "path": "/x", "query": "q=1&q=2"},
               "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"n": 1},
                            "matchingRules": {"$.body.n": {"match": "type"}}}}]}
            """#
        let two = try PactImport.read(Data(v2.utf8))
        #expect(two.version == 2)
        let read = two.cassette(recordedAt: Date()).interactions[0]
        #expect(read.request.method == "GET" && read.request.url == "http://localhost/x?q=1&q=2")
        let v4 = #"""
            {"consumer": {"name": "a"}, "provider": {"name": "b"}, "metadata": {"pactSpecification": {"version": "4.0"}},
             "interactions": [{"type": "Synchronous/HTTP", "description": "d", "request": {"method": "POST", "path": "/upload",
               "body": {"content": "AAEC/w==", "contentType": "application/octet-stream", "encoded": "base64"}},
               "response": {"status": 201, "body": {"content": {"ok": true}, "contentType": "application/json", "encoded": false},
                            "matchingRules": {"body": {"$.ok": {"matchers": [{"match": "boolean"}], "combine": "AND"}}}}}]}
            """#
        let four = try PactImport.read(Data(v4.utf8))
        let exchange = four.cassette(recordedAt: Date()).interactions[0]
        #expect(four.version == 4 && exchange.request.body.inlineData == Data([0, 1, 2, 255]))
        #expect(exchange.response?.body.inlineData == Data(#"{"ok":true}"#.utf8) && exchange.response?.statusCode == 201)
    }

    @Test(arguments: [
        (#"{"consumer": {"name": "a"}, "provider": {"name": "b"}, "interactions": [], "metadata": {"pactSpecification": {"version": "5.0.0"}}}"#,
         "$.metadata.pactSpecification.version: Pact specification 5.0.0 is newer than supported (2, 3 and 4)"),
        (#"{"consumer": {"name": "a"}, "provider": {"name": "b"}, "metadata": {"pactSpecification": {"version": "3.0.0"}}, "interactions": [{"request": {"method": "GET", "path": "/"}, "response": {"status": 200, "matchingRules": {"body": {"$.a": {"matchers": [{"match": "soundex"}]}}}}}]}"#,
         "$.interactions[0].response.matchingRules.body['$.a'].matchers[0].match: unknown matcher 'soundex' (known: equality, regex, type, min, max, include, integer, decimal, number, null, boolean, notEmpty, semver, date, time, timestamp, contentType, values, eachKey, eachValue, statusCode)"),
        (#"{"consumer": {"name": "a"}, "provider": {"name": "b"}, "interactions": [{"type": "Asynchronous/Messages", "description": "m"}], "metadata": {"pactSpecification": {"version": "4.0"}}}"#,
         "$.interactions[0].type: 'Asynchronous/Messages' interactions are not supported (only Synchronous/HTTP)"),
        (#"{"consumer": {"name": "a"}, "provider": {"name": "b"}, "interactions": [{"request": {"method": "GET", "path": "/"}, "response": {"status": 200, "body": {"a": [1, {"b": tru"#,
         "$.interactions[0].response.body.a[1].b: not valid JSON: unexpected end of the document in 'true' (line 1, column 169)"),
        (#"{"consumer": {"name": "a"}, "interactions": []}"#, "$.provider.name: missing"),
        (#"{"consumer": {"name": "a"}, "provider": {"name": "b"}, "interactions": [{"request": {"method": "GET", "path": "/"}, "response": {"status": 99}}]}"#,
         "$.interactions[0].response.status: missing or not an HTTP status code"),
    ])
    func badContractsAreRefusedWithTheirJSONPath(json: String, message: String) {
        #expect { try PactImport.read(Data(json.utf8)) } throws: { error in
            let description = "\(error)"
            if description != message { Issue.record("got: \(description)") }
            return true
        }
    }

    /// Served as stubs: Pact's rules decide which interaction answers (a regex on the path, a type rule on a body
    /// member); a request that matches none gets a 404 naming the nearest and why.
    @Test func stubsAnswerByPactsRules() throws {
        let contract = #"""
            {"consumer": {"name": "web"}, "provider": {"name": "users"}, "metadata": {"pactSpecification": {"version": "3.0.0"}},
             "interactions": [
              {"description": "a user", "request": {"method": "GET", "path": "/users/1",
                 "matchingRules": {"path": {"matchers": [{"match": "regex", "regex": "/users/[0-9]+"}]}}},
               "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"id": 1, "name": "Ada"}}},
              {"description": "a new user", "request": {"method": "POST", "path": "/users", "headers": {"Content-Type": "application/json"},
                 "body": {"name": "Bob"}, "matchingRules": {"body": {"$.name": {"matchers": [{"match": "type"}]}}}},
               "response": {"status": 201, "body": {"id": 2}}}]}
            """#
        let stubs = try PactStubs(PactImport.read(Data(contract.utf8)))
        let user = stubs.respond(to: .init(method: "GET", url: "/users/42"))
        #expect(user.interaction == "a user" && user.response.statusCode == 200)
        #expect(user.response.body.inlineData == Data(#"{"id":1,"name":"Ada"}"#.utf8))
        let created = stubs.respond(to: .init(method: "POST", url: "/users", headers: ["Content-Type": "application/json; charset=utf-8"],
                                              body: Fixtures.json(#"{"name":"Cy"}"#)))
        #expect(created.interaction == "a new user" && created.response.statusCode == 201)
        let wrongType = stubs.respond(to: .init(method: "POST", url: "/users", headers: ["Content-Type": "application/json"],
                                                body: Fixtures.json(#"{"name":7}"#)))
        #expect(wrongType.interaction == nil && wrongType.response.statusCode == 404)
        #expect(String(decoding: wrongType.response.body.inlineData ?? Data(), as: UTF8.self) == """
            no interaction of the Pact contract between web and users matches POST /users
            nearest: a new user
              - $.name: 7 does not match the rule

            """)
        #expect(stubs.respond(to: .init(method: "GET", url: "/users/abc")).response.statusCode == 404)
    }

    /// The nearest interaction is the one that differs least, as stubs and cassettes rank theirs: a missing header or
    /// a body whose every member differs comes before another path, whatever the contract's order.
    @Test func theNearestInteractionDiffersLeastNotFirst() throws {
        let contract = #"""
            {"consumer": {"name": "web"}, "provider": {"name": "api"}, "metadata": {"pactSpecification": {"version": "3.0.0"}},
             "interactions": [
              {"description": "a uuid", "request": {"method": "GET", "path": "/uuid"}, "response": {"status": 200}},
              {"description": "an order", "request": {"method": "POST", "path": "/orders"}, "response": {"status": 201}},
              {"description": "a with a token", "request": {"method": "GET", "path": "/get", "query": {"a": ["1"]},
                 "headers": {"X-Token": "abc"}}, "response": {"status": 200}},
              {"description": "a new user", "request": {"method": "POST", "path": "/users", "headers": {"Content-Type": "application/json"},
                 "body": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}}, "response": {"status": 201}}]}
            """#
        let stubs = try PactStubs(PactImport.read(Data(contract.utf8)))
        func report(_ request: Interaction.Request) -> String {
            let answer = stubs.respond(to: request)
            #expect(answer.interaction == nil && answer.response.statusCode == 404)
            return String(decoding: answer.response.body.inlineData ?? Data(), as: UTF8.self)
        }
        #expect(report(.init(method: "GET", url: "/get?a=1")) == """
            no interaction of the Pact contract between web and api matches GET /get?a=1
            nearest: a with a token
              - header X-Token: missing

            """)
        #expect(report(.init(method: "GET", url: "/get?a=2", headers: ["X-Token": "abc"])).contains("nearest: a with a token\n  - query a:"))
        let everyMember = report(.init(method: "POST", url: "/users", headers: ["Content-Type": "application/json"],
                                       body: Fixtures.json(#"{"a":9,"b":9,"c":9,"d":9,"e":9}"#)))
        #expect(everyMember.contains("nearest: a new user\n  - $.a:"), "\(everyMember)")
        #expect(everyMember.components(separatedBy: "\n  - ").count == 6, "every differing member is still listed: \(everyMember)")
    }

    @Test func theBreakPathFollowsKeysAndIndexes() {
        let text = #"{"a": [1, {"b": tru"#
        #expect(JSONBreakPath.path(in: Data(text.utf8), upTo: text.utf8.count) == "$.a[1].b")
        #expect(JSONBreakPath.path(in: Data(#"{"x": "a,b", "odd key": ["#.utf8), upTo: 26) == "$['odd key'][0]")
        #expect(JSONBreakPath.path(in: Data("[".utf8), upTo: 1) == "$[0]")
    }

    @Test func theCommandConvertsAContractAndWritesNothingForABadOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let contract = directory.url.appendingPathComponent("contract.json")
        try Self.exported().write(to: contract)
        let output = directory.url.appendingPathComponent("cassette.json")
        let converted = try await CLIRunner.run(["convert", contract.path, "-o", output.path])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr.hasPrefix("Read 7 interaction(s) from a Pact v3 contract between web and users-api"))
        #expect(try CassetteFile.load(output).interactions.count == 7)
        let verified = try await CLIRunner.run(["verify", output.path, "--pact", contract.path])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        let truncated = directory.url.appendingPathComponent("cut.json")
        try Self.exported().prefix(700).write(to: truncated)
        let nothing = directory.url.appendingPathComponent("nothing.json")
        let refused = try await CLIRunner.run(["convert", truncated.path, "--from", "pact", "-o", nothing.path])
        #expect(refused.status != 0 && refused.stderr.contains("not valid JSON") && refused.stderr.contains("$.interactions["), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: nothing.path))
    }
}
