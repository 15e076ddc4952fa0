import Foundation
import Testing
import TapedeckCore
@testable import TapedeckStubServer

@Suite struct StubDefinitionTests {
    private func stub(_ json: String) throws -> Stub {
        try Stub.decode(Data(json.utf8))
    }

    private func error(_ json: String) -> String {
        do {
            _ = try Stub.decodeList(Data(json.utf8))
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func aFullDefinitionBecomesAStub() throws {
        let made = try stub("""
            {"id": "u", "name": "user", "priority": 2,
             "request": {"method": "post", "pathTemplate": "/users/{id}", "query": {"v": "2", "debug": {"absent": true}},
                         "headers": {"Accept": {"contains": "json"}}, "body": {"jsonPartial": {"name": "Ada"}}},
             "response": {"status": 201, "headers": {"X-A": "1"}, "jsonBody": {"ok": true}},
             "delay": {"minMilliseconds": 5, "maxMilliseconds": 10, "seed": 7},
             "scenario": {"name": "s", "requiredState": "Started", "newState": "two"}}
            """)
        #expect(made.id == "u")
        #expect(made.priority == 2)
        #expect(made.matcher == RequestPattern(.post, .template("/users/{id}"), query: ["v": "2", "debug": .absent],
                                               headers: ["Accept": .contains("json")], body: .jsonPartial(["name": "Ada"])))
        #expect(made.delay == .random(.milliseconds(5)...(.milliseconds(10)), seed: 7))
        #expect(made.scenario == ScenarioStep("s", requiredState: "Started", newState: "two"))
        let response = made.response(to: request(.post, "/users/1"))
        #expect(response.status == 201)
        #expect(response.headers["Content-Type"] == "application/json")
        guard case .data(let body) = response.body else {
            Issue.record("expected a data body")
            return
        }
        #expect(body == Data(#"{"ok":true}"#.utf8))
    }

    @Test func anUnknownFieldIsRefusedAtItsPlace() {
        let json = #"{"stubs": [{"request": {"method": "GET", "path": "/a"}, "response": {"status": 200}},"#
            + #" {"request": {"method": "GET", "urll": "/b"}, "response": {"status": 200}}]}"#
        #expect(throws: StubDefinitionError(
            location: "stubs[1].request.urll",
            reason: #"unknown field "urll" (known here: method, path, pathTemplate, pathRegex, url, query, headers, cookies, body, graphql)"#
        )) { try Stub.decodeList(Data(json.utf8)) }
        #expect(throws: StubDefinitionError.self) {
            try Stub.decode(Data(#"{"request": {}, "response": {"status": 200, "jsonBody": {}, "statusMesage": "OK"}}"#.utf8))
        }
    }

    /// A key of a million characters (found by the CLI mutation sweep in a `delay` object) is named cut short, in the
    /// location as in the reason.
    @Test func aHugeUnknownKeyIsNamedCutShort() {
        let key = String(repeating: "é", count: 1_000_000)
        let json = #"{"request": {}, "response": {"status": 200}, "delay": {""# + key + #"": 1}}"#
        do {
            _ = try Stub.decode(Data(json.utf8))
            Issue.record("a stub with an unknown delay field decoded")
        } catch {
            let message = "\(error)"
            #expect(message.count < 1_000, "\(message.prefix(200))")
            #expect(message.hasPrefix("invalid stub definition at delay.éé"), "\(message.prefix(200))")
        }
    }

    /// A key that is not a plain name (spaces, dots, an empty key) is quoted in the location, so the place stays
    /// readable (the CLI sweep found `at request.` followed by a run of spaces).
    @Test func aKeyThatIsNotAPlainNameIsQuotedInTheLocation() {
        for (key, location) in [("   ", #"request["   "]"#), ("a.b", #"request["a.b"]"#), ("", #"request[""]"#)] {
            let json = #"{"request": {""# + key + #"": 1}, "response": {"status": 200}}"#
            do {
                _ = try Stub.decode(Data(json.utf8))
                Issue.record("a stub with the unknown request field \(key.debugDescription) decoded")
            } catch {
                #expect("\(error)".hasPrefix("invalid stub definition at \(location):"), "\(error)")
            }
        }
    }

    /// Of several unknown fields, the one named is the first by name, the same on every run (a WireMock 4 message
    /// stub read as a Tapedeck stub once named "trigger" or "actions" by chance).
    @Test func ofSeveralUnknownFieldsTheFirstByNameIsNamedEveryTime() {
        let json = #"{"trigger": {"type": "message"}, "zeta": 1, "actions": [], "name": "echo", "mid": 2}"#
        for _ in 0..<20 {
            #expect(throws: StubDefinitionError(
                location: "actions",
                reason: #"unknown field "actions" (known here: id, name, priority, request, response, webSocket, delay, scenario, summary)"#
            )) { try Stub.decode(Data(json.utf8)) }
        }
    }

    @Test func faultsChunkingAndListsDecode() throws {
        #expect(try stub(#"{"request": {}, "response": {"fault": "reset"}}"#).responder.fault == .reset)
        #expect(try stub(#"{"request": {}, "response": {"fault": "partialBody", "partialBodySent": 3, "partialBodyDeclared": 9}}"#).responder.fault
            == .partialBody(sent: 3, declared: 9))
        #expect(try stub(#"{"request": {}, "response": {"fault": "stall", "partialBodySent": 4}}"#).responder.fault == .stall(sent: 4))
        #expect(try stub(#"{"request": {}, "response": {"fault": "status", "status": 503}}"#).responder.fault == .status(503))
        let chunked = try stub(#"{"request": {}, "response": {"body": "abcdef", "chunked": {"bytesPerChunk": 2, "intervalMilliseconds": 5}}}"#)
        guard case .response(let response) = chunked.responder, case .chunked(let body) = response.body else {
            Issue.record("expected a chunked response")
            return
        }
        #expect(body.chunkSize == 2)
        #expect(body.interval == .milliseconds(5))
        #expect(try Stub.decodeList(Data(#"{"stubs": [{"request": {}, "response": {}}]}"#.utf8)).count == 1)
        #expect(try Stub.decodeList(Data(#" [{"request": {}, "response": {}}, {"request": {}, "response": {}}]"#.utf8)).count == 2)
    }

    @Test func listingsRoundTrip() throws {
        let original = Stub(id: "x", RequestPattern(.get, "/a/{b}").query("q", .matches("[a-z]+")).body(.form(["f": .present])),
                            priority: 3, response: .json(["k": 1]), delay: .fixed(.milliseconds(20)))
        let encoded = try JSONEncoder().encode(original)
        let decoded = try Stub.decode(encoded)
        #expect(decoded.id == "x")
        #expect(decoded.matcher == original.matcher)
        #expect(decoded.priority == 3)
        #expect(decoded.delay == .fixed(.milliseconds(20)))
        let closure = try JSONValue(parsing: JSONEncoder().encode(Stub(RequestPattern(), handler: { _ in .text("") })))
        #expect(closure?["request"] == [:])
        #expect(closure?["response"] == nil, "closures have no JSON form")
    }

    @Test func everyResponderKindListsAsADefinitionThatReadsBack() throws {
        let stubs = [
            Stub(id: "t", RequestPattern(.post, .regex("/v[0-9]+")).header("A", .absent).body(.multipart([.init(name: "f", fileName: .contains("."))])),
                 responder: .template(try ResponseTemplate(status: 202, headers: ["X": "{{path}}"], body: "{{body}}")),
                 scenario: ScenarioStep("s", newState: "n")),
            Stub(id: "p", RequestPattern(), fault: .partialBody(sent: 2, declared: 5)),
            Stub(id: "m", RequestPattern(), fault: .malformedResponse(Data([0xFF, 0x00]))),
            Stub(id: "c", RequestPattern(nil, "/c").body(.equalTo(Data([0xFE]))),
                 response: StubResponse.text("abcdef").dribbled(bytesPerChunk: 2, interval: .milliseconds(3))),
            Stub(id: "b", RequestPattern().body(.jsonPartial(["a": [1]])), response: StubResponse(status: 204, body: .data(Data([0xC3]))),
                 delay: .random(.milliseconds(1)...(.milliseconds(4)), seed: 9)),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let listing = try encoder.encode(["stubs": stubs])
        let text = String(decoding: listing, as: UTF8.self)
        #expect(text.contains(#""response":{"body":"{{body}}","headers":{"X":"{{path}}"},"status":202,"template":true}"#))
        #expect(text.contains(#""response":{"fault":"partialBody","partialBodyDeclared":5,"partialBodySent":2}"#))
        #expect(text.contains(#""response":{"base64Body":"/wA=","fault":"malformedResponse"}"#))
        #expect(text.contains(#""chunked":{"bytesPerChunk":2,"intervalMilliseconds":3}"#))
        #expect(text.contains(#""body":{"base64":"/g=="}"#))
        #expect(text.contains(#""delay":{"maxMilliseconds":4,"minMilliseconds":1,"seed":9}"#))
        let decoded = try Stub.decodeList(listing)
        #expect(decoded.map(\.id) == stubs.map(\.id))
        #expect(decoded.map(\.matcher) == stubs.map(\.matcher))
        #expect(decoded.map(\.scenario) == stubs.map(\.scenario))
        #expect(decoded.map(\.delay) == stubs.map(\.delay))
        #expect(decoded[0].response(to: request(.post, "/v2", body: "hi")).headers["X"] == "/v2")
        #expect(decoded[1].responder.fault == .partialBody(sent: 2, declared: 5))
        #expect(decoded[2].responder.fault == .malformedResponse(Data([0xFF, 0x00])))
        guard case .response(let chunked) = decoded[3].responder, case .chunked(let body) = chunked.body else {
            Issue.record("expected a chunked response")
            return
        }
        #expect(body.data == Data("abcdef".utf8))
        #expect(body.chunkSize == 2)
        guard case .response(let binary) = decoded[4].responder, case .data(let bytes) = binary.body else {
            Issue.record("expected a data response")
            return
        }
        #expect(bytes == Data([0xC3]))
        #expect(binary.status == 204)
    }

    @Test(arguments: [
        (#"{"response": {}}"#, #"invalid stub definition at request: required field "request" is missing"#),
        (#"{"request": {"path": "/a"}}"#, #"invalid stub definition at response: required field "response" is missing"#),
        (#"{"request": {"path": "a"}, "response": {}}"#, #"invalid stub definition at request.path: must start with "/", got "a""#),
        (#"{"request": {"path": "/a", "pathRegex": "/b"}, "response": {}}"#, "invalid stub definition at request: give at most one of path, pathTemplate and pathRegex, not path and pathRegex"),
        (#"{"request": {"pathRegex": "(x"}, "response": {}}"#, #"invalid stub definition at request.pathRegex: invalid regular expression "(x": expected ')' at offset 2"#),
        (#"{"request": {"headers": {"A": {"equalTo": "1", "contains": "2"}}}, "response": {}}"#, "invalid stub definition at request.headers.A: give only one of equalTo, contains, matches, doesNotContain, doesNotMatch, present, absent"),
        (#"{"request": {"body": {}}, "response": {}}"#, "invalid stub definition at request.body: give one of equalTo, base64, contains, matches, json, jsonPartial, jsonPath, form, multipart, allOf"),
        (#"{"request": {}, "response": {"status": 42}}"#, "invalid stub definition at response.status: must be between 200 and 599, got 42"),
        // H9: a 1xx sent `100 Continue` and held the connection; the client waited for ever.
        (#"{"request": {}, "response": {"status": 101}}"#, "invalid stub definition at response.status: 101 is an informational "
            + "status, which a stub cannot answer with (the client would wait for the final response for ever); use 200 to 599"),
        (#"{"request": {}, "response": {"status": "200"}}"#, "invalid stub definition at response.status: expected an integer"),
        (#"{"request": {}, "response": {"body": "a", "jsonBody": 1}}"#, "invalid stub definition at response: give at most one of body, base64Body, jsonBody, bodyFile, not body and jsonBody"),
        (#"{"request": {}, "response": {"fault": "explode"}}"#, #"invalid stub definition at response.fault: unknown fault "explode""#),
        (#"{"request": {}, "response": {"fault": "reset", "jsonBody": 1}}"#, "invalid stub definition at response: the reset fault takes no other member; remove jsonBody"),
        (#"{"request": {}, "response": {"fault": "status", "status": 101}}"#, "invalid stub definition at response.status: 101 is an informational status"),
        (#"{"request": {}, "response": {"body": "{{nope}}", "template": true}}"#, #"invalid stub definition at response.body: invalid response template "{{nope}}": unknown placeholder"#),
        (#"{"request": {}, "response": {}, "delay": {"minMilliseconds": 9, "maxMilliseconds": 1}}"#, "invalid stub definition at delay: needs 0 ≤ minMilliseconds ≤ maxMilliseconds, got 9 and 1"),
        (#"{"request": {}, "response": {}, "delay": {"milliseconds": 99999999999}}"#, "invalid stub definition at delay.milliseconds: is 99999999999 ms, more than a delay may be (3600000 ms, one hour)"),
        (#"{"request": {}, "response": {}, "delay": {"minMilliseconds": 1, "maxMilliseconds": 3600001}}"#, "invalid stub definition at delay.maxMilliseconds: is 3600001 ms, more than a delay may be (3600000 ms, one hour)"),
        (#"{"request": {}, "response": {"body": "a", "chunked": {"bytesPerChunk": 1, "intervalMilliseconds": 3600001}}}"#, "invalid stub definition at response.chunked.intervalMilliseconds: is 3600001 ms, more than a delay may be (3600000 ms, one hour)"),
        (#"{"request": {}, "response": {}, "scenario": {"requiredState": "x"}}"#, #"invalid stub definition at scenario.name: required field "name" is missing"#),
        ("[1]", "invalid stub definition at [0]: expected an object"),
        (#"{"stubs": [{"request": {}, "response": {}}, {"request": {"path": "x"}, "response": {}}]}"#, #"invalid stub definition at stubs[1].request.path: must start with "/", got "x""#),
        (#"{"request": {}, "response": {"body": "a", "chunked": {"bytesPerChunk": 0}}}"#, "invalid stub definition at response.chunked.bytesPerChunk: must be at least 1, got 0"),
        (#"{"request": {"body": {"multipart": [{"name": "f", "body": {}}]}}, "response": {}}"#, "invalid stub definition at request.body.multipart[0].body: give one of equalTo"),
        ("not json", "invalid stub definition at $: "),
    ])
    func badDefinitionsSayWhereAndWhat(json: String, expected: String) {
        let message = error(json)
        #expect(message.hasPrefix(expected), "\(message)")
    }
}

extension StubResponder {
    var fault: TransportFault? {
        if case .fault(let fault) = self { return fault }
        return nil
    }
}
