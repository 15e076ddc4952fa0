import Foundation
import Testing
import TapedeckCore
import TapedeckTestSupport
@testable import TapedeckStubServer

/// `WireMockMappings` over the fixtures in `Fixtures/WireMock`, written after WireMock's documentation: each file's
/// first mapping names its page in `metadata.followsPage`, and `Fixtures/WireMock/README.md` lists them
/// (wiremock.org/docs/stubbing/, /docs/request-matching/, /docs/simulating-faults/, /docs/stateful-behaviour/).
@Suite struct WireMockMappingsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/WireMock")

    /// A registry holding every fixture mapping, as the server would.
    static func registry() throws -> StubRegistry {
        let registry = StubRegistry()
        for stub in try WireMockMappings.stubs(inDirectory: fixtures) { registry.add(stub) }
        return registry
    }

    /// The answer `registry` gives `request` as `STATUS BODY`, or `nil` when no stub matches.
    static func answer(_ registry: StubRegistry, _ request: RecordedRequest) -> String? {
        guard let stub = registry.resolve(request) else { return nil }
        let response = stub.response(to: request)
        switch response.body {
        case .data(let data): return "\(response.status) " + String(decoding: data, as: UTF8.self)
        case .empty: return "\(response.status) "
        default: return "\(response.status) <\(response.body)>"
        }
    }

    /// The body text of the answer `registry` gives `request`, or `nil` when no stub matches.
    static func body(_ registry: StubRegistry, _ request: RecordedRequest) -> String? {
        answer(registry, request).map { String($0.drop { $0 != " " }.dropFirst()) }
    }

    // MARK: wiremock.org/docs/stubbing/

    @Test func theFolderIsReadInPathOrderWithBodyFilesFromFiles() throws {
        let stubs = try WireMockMappings.stubs(inDirectory: Self.fixtures)
        #expect(stubs.count == 25)
        #expect(try WireMockMappings.stubs(inDirectory: Self.fixtures.appendingPathComponent("mappings")).count == 25,
                "the mappings folder itself reads the same")
        #expect(stubs[0].id == "6f5ea0c9-0e5b-4c4e-9d4f-2b1f7d6c1a01")
        #expect(stubs[0].name == "basic stub")
        #expect(stubs[0].matcher == RequestPattern(.get, .exact("/some/thing"), url: .equalTo("/some/thing")))
        #expect(stubs[3].id == "6f5ea0c9-0e5b-4c4e-9d4f-2b1f7d6c1a04", "uuid is the id")
        guard case .response(let products) = stubs[3].responder, case .file(let file) = products.body else {
            Issue.record("expected a body file")
            return
        }
        #expect(file.path == Self.fixtures.appendingPathComponent("__files/json/products.json").standardizedFileURL.path)
        #expect(stubs.last?.scenario == ScenarioStep("To do list", requiredState: "Cancel newspaper item added"))
    }

    @Test func stubsAnswerAsDocumented() throws {
        let registry = try Self.registry()
        let hello = try #require(registry.resolve(request(.get, "/some/thing")))
        let response = hello.response(to: request(.get, "/some/thing"))
        #expect(response.headers["Content-Type"] == "text/plain")
        #expect(Self.answer(registry, request(.get, "/some/thing")) == "200 " + "Hello, world!")
        #expect(Self.answer(registry, request(.get, "/api/specific-resource")) == "200 " + #"{"id":42,"tags":["a","b"]}"#,
                "priority 1 beats priority 10")
        #expect(Self.answer(registry, request(.get, "/api/other")) == "401 " + "")
        #expect(Self.answer(registry, request(.get, "/api/other", query: "a=1")) == "401 " + "", "urlPattern sees the query")
        let binary = try #require(registry.resolve(request(.get, "/binary"))).response(to: request(.get, "/binary"))
        #expect(binary.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        guard case .data(let bytes) = binary.body else {
            Issue.record("expected bytes")
            return
        }
        #expect(bytes == Data([0, 159, 255]))
        #expect(Self.answer(registry, request(.delete, "/anything", query: "x=1")) == "204 " + "", "ANY method; url is path and query")
        #expect(Self.answer(registry, request(.get, "/anything", query: "x=1&y=2")) == nil, "url compares the whole query")
        #expect(Self.answer(registry, request(.get, "/anything")) == nil)
    }

    // MARK: wiremock.org/docs/request-matching/

    @Test func requestMatchersMatchAsWireMocksDo() throws {
        let registry = try Self.registry()
        let authorization = "Basic " + Data("jeff@example.com:jeffteenjefftyjeff".utf8).base64EncodedString()
        let everything: HTTPHeaders = ["Accept": "text/xml", "Cookie": "a=b; session=ab12345cd", "Authorization": authorization]
        let body = "<search-results />"
        #expect(Self.answer(registry, request(.patch, "/everything", query: "search_term=WireMock&page=2", headers: everything, body: body))
            == "200 everything matched")
        var debug = everything
        debug.add(name: "X-Debug", value: "1")
        #expect(Self.answer(registry, request(.patch, "/everything", query: "search_term=WireMock&page=2", headers: debug, body: body)) == nil)
        var noCookie = everything
        noCookie["Cookie"] = "session=other"
        #expect(Self.answer(registry, request(.patch, "/everything", query: "search_term=WireMock&page=2", headers: noCookie, body: body)) == nil)
        #expect(Self.answer(registry, request(.patch, "/everything", query: "search_term=WireMock&page=x", headers: everything, body: body)) == nil)

        let address = "/contacts/12/addresses/99"
        #expect(Self.answer(registry, request(.get, address, headers: ["X-Mode": "fast", "User-Agent": "curl"])) == "200 " + "address")
        #expect(Self.answer(registry, request(.get, address, headers: ["X-Mode": "Fast"])) == "200 " + "address",
                "doesNotMatch and doesNotContain hold for an absent header, as in WireMock")
        #expect(Self.answer(registry, request(.get, address, headers: ["X-Mode": "fast", "User-Agent": "googlebot"])) == nil)
        #expect(Self.answer(registry, request(.get, address, headers: ["X-Mode": "fast", "X-Tags": "a,secret"])) == nil)
        #expect(Self.answer(registry, request(.get, address, headers: ["X-Mode": "slow"])) == nil)
    }

    @Test func equalToJsonHonoursItsOptions() throws {
        let registry = try Self.registry()
        func post(_ path: String, _ body: String) -> String? { Self.body(registry, request(.post, path, body: body)) }
        #expect(post("/json/strict", #"{"items": [1, 2], "total": 5}"#) == "strict")
        #expect(post("/json/strict", #"{"items": [2, 1], "total": 5}"#) == nil)
        #expect(post("/json/strict", #"{"items": [1, 2], "total": 5, "x": 1}"#) == nil)
        #expect(post("/json/order", #"{"items": [2, 1]}"#) == "order")
        #expect(post("/json/order", #"{"items": [2, 1, 3]}"#) == nil)
        #expect(post("/json/extra", #"{"items": [1, 2, 3], "x": true}"#) == "extra")
        #expect(post("/json/extra", #"{"items": [2, 1]}"#) == nil)
        #expect(post("/json/both", #"{"items": [1, 2, 3], "x": true}"#) == "both")
        #expect(post("/json/both", #"{"items": [1, 3]}"#) == nil)
    }

    @Test func jsonPathBinaryAndCaseInsensitiveBodies() throws {
        let registry = try Self.registry()
        let body = #"{"name": "n", "things": [{"kind": "RequiredThing"}], "outer": {"inner": "middle"}}"#
        #expect(Self.body(registry, request(.post, "/json/path", body: body)) == "json path")
        #expect(Self.answer(registry, request(.post, "/json/path", body: #"{"name": null, "things": [{"kind": "RequiredThing"}], "outer": {"inner": "middle"}}"#)) == nil,
                "a null does not count as present")
        #expect(Self.answer(registry, request(.post, "/json/path", body: #"{"name": "n", "things": [], "outer": {"inner": "middle"}}"#)) == nil)
        #expect(Self.answer(registry, request(.post, "/json/path", body: body.replacingOccurrences(of: "}}", with: #"}, "missing": 1}"#))) == nil)
        #expect(Self.body(registry, RecordedRequest(method: .put, path: "/bytes", body: Data([1, 2, 3]))) == "bytes")
        #expect(Self.answer(registry, RecordedRequest(method: .put, path: "/bytes", body: Data([1, 2]))) == nil)
        #expect(Self.body(registry, request(.put, "/text", body: "hello")) == "text")
        #expect(Self.answer(registry, request(.put, "/text", body: "hello!")) == nil)
    }

    // MARK: wiremock.org/docs/simulating-faults/

    @Test func delaysDribblesAndFaults() throws {
        let stubs = try WireMockMappings.stubs(inDirectory: Self.fixtures)
        func stub(_ path: String) throws -> Stub { try #require(stubs.first { $0.matcher.path == .exact(path) }) }
        #expect(try stub("/delayed").delay == .fixed(.milliseconds(2000)))
        #expect(try stub("/random/delayed").delay == .random(.milliseconds(15)...(.milliseconds(25)), seed: 0))
        guard case .response(let dribbled) = try stub("/chunked/delayed").responder, case .chunked(let chunks) = dribbled.body else {
            Issue.record("expected a chunked body")
            return
        }
        #expect(chunks.data == Data("Hello world!".utf8))
        #expect(chunks.chunkSize == 3)
        #expect(chunks.interval == .milliseconds(200))
        #expect(try stub("/fault/empty").responder.fault == .closeWithoutResponse)
        #expect(try stub("/fault/reset").responder.fault == .reset)
        guard case .malformedResponse(let chunk)? = try stub("/fault/chunk").responder.fault,
              case .malformedResponse(let random)? = try stub("/fault/random").responder.fault else {
            Issue.record("expected raw-byte faults")
            return
        }
        #expect(String(decoding: chunk, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"))
        #expect(!String(decoding: random, as: UTF8.self).hasPrefix("HTTP/"))
    }

    // MARK: wiremock.org/docs/stateful-behaviour/

    @Test func theToDoListScenarioMovesOn() throws {
        let registry = try Self.registry()
        let before = "<items><item>Buy milk</item></items>"
        #expect(Self.body(registry, request(.get, "/todo/items")) == before)
        #expect(Self.answer(registry, request(.post, "/todo/items", body: "Cancel newspaper subscription")) == "201 ")
        #expect(Self.body(registry, request(.get, "/todo/items"))
            == "<items><item>Buy milk</item><item>Cancel newspaper subscription</item></items>")
        registry.scenarios.resetAll()
        #expect(Self.body(registry, request(.get, "/todo/items")) == before)
    }

    // MARK: Forms of the document

    @Test func oneMappingAnArrayOrADocument() throws {
        let one = #"{"request": {"method": "GET", "url": "/a"}, "response": {"status": 200}}"#
        #expect(try WireMockMappings.stubs(from: Data(one.utf8)).count == 1)
        #expect(try WireMockMappings.stubs(from: Data("[\(one), \(one)]".utf8)).count == 2)
        #expect(try WireMockMappings.stubs(from: Data(#"{"mappings": [\#(one)], "meta": {"total": 1}}"#.utf8)).count == 1)
        let bare = try WireMockMappings.stubs(from: Data(#"{"request": {}}"#.utf8))
        #expect(bare[0].matcher == RequestPattern(), "no method, no URL: any request")
        #expect(bare[0].response(to: request(.get, "/")).status == 200, "no response: an empty 200")
        #expect(bare[0].priority == Stub.defaultPriority)
    }

    @Test func wireMockMappingsAreToldFromStubDefinitions() {
        func guess(_ json: String) -> Bool { WireMockMappings.looksLikeMappings(Data(json.utf8)) }
        #expect(guess(#"{"mappings": []}"#))
        #expect(guess(#"{"request": {"url": "/a"}, "response": {}}"#))
        #expect(guess(#"[{"request": {"method": "GET"}, "response": {}}, {"request": {"urlPath": "/a"}, "response": {}}]"#))
        #expect(guess(#"{"request": {}, "response": {"fixedDelayMilliseconds": 5}}"#))
        #expect(guess(#"{"request": {}, "response": {}, "scenarioName": "s"}"#))
        #expect(!guess(#"{"stubs": []}"#))
        #expect(!guess(#"{"request": {"path": "/a"}, "response": {"jsonBody": {}}}"#))
        #expect(!guess(#"{"request": {"method": "GET"}, "response": {"jsonBody": {}}}"#), "fields both formats use decide nothing")
        #expect(!guess(#"{"request": {"url": "/a"}, "response": {}, "delay": {"milliseconds": 1}}"#), "a Tapedeck-only field wins")
        #expect(!guess("not json"))
    }

    // MARK: Refusals

    static let refusals: [(json: String, message: String)] = [
        (#"{"request": {"url": "/a"}, "response": {"proxyBaseUrl": "http://example.com"}}"#,
         "invalid WireMock mapping at response.proxyBaseUrl: proxying is not supported"),
        (#"{"mappings": [{"request": {}}, {"name": "greet", "request": {"url": "/a"}, "response": {"body": "{{request.path}}", "transformers": ["response-template"]}}]}"#,
         #"invalid WireMock mapping at mappings[1].response.transformers (mapping "greet"): response transformers (response templating included) are not supported"#),
        (#"[{"request": {}, "response": {}, "postServeActions": []}]"#,
         "invalid WireMock mapping at [0].postServeActions: post-serve actions (webhooks) are not supported"),
        (#"{"request": {"headers": {"A": {"equalToo": "x"}}}}"#,
         "invalid WireMock mapping at request.headers.A.equalToo: unknown matcher; use one of equalTo (with caseInsensitive), contains, matches, doesNotMatch, doesNotContain, absent"),
        (#"{"request": {"queryParameters": {"q": "x"}}}"#,
         #"invalid WireMock mapping at request.queryParameters.q: expected a matcher object such as {"equalTo": "…"}"#),
        (#"{"request": {"urlPaths": "/a"}}"#,
         "invalid WireMock mapping at request.urlPaths: unknown field; supported here: basicAuthCredentials, bodyPatterns, cookies, headers, method, queryParameters, url, urlPath, urlPathPattern, urlPathTemplate, urlPattern"),
        (#"{"request": {"url": "/a", "urlPath": "/a"}}"#,
         "invalid WireMock mapping at request: give at most one of url, urlPath, urlPattern, urlPathPattern and urlPathTemplate, not url and urlPath"),
        (#"{"request": {"bodyPatterns": [{"matchesJsonPath": "$.things[?(@.name == 'x')]"}]}}"#,
         #"invalid WireMock mapping at request.bodyPatterns[0].matchesJsonPath: unsupported JSONPath "$.things[?(@.name == 'x')]" at character 9: filter expressions ("[?(...)]") are not supported"#),
        (#"{"request": {"bodyPatterns": [{"matchesJsonPath": "$..name"}]}}"#,
         #"invalid WireMock mapping at request.bodyPatterns[0].matchesJsonPath: unsupported JSONPath "$..name" at character 2: deep scan ("..") is not supported"#),
        (#"{"request": {"bodyPatterns": [{"equalToXml": "<a/>"}]}}"#,
         "invalid WireMock mapping at request.bodyPatterns[0].equalToXml: XML matchers are not supported"),
        (#"{"request": {"bodyPatterns": [{"equalToJson": {}, "enablePlaceholders": true}]}}"#,
         "invalid WireMock mapping at request.bodyPatterns[0].enablePlaceholders: JSON placeholders (enablePlaceholders) are not supported"),
        (#"{"request": {"bodyPatterns": [{"contains": "a", "ignoreArrayOrder": true}]}}"#,
         "invalid WireMock mapping at request.bodyPatterns[0].ignoreArrayOrder: applies to equalToJson only"),
        (#"{"request": {"urlPathTemplate": "/a/{id:[0-9]+}"}}"#,
         #"invalid WireMock mapping at request.urlPathTemplate: only whole-segment parameters such as /users/{id} are supported, not "{id:[0-9]+}""#),
        (#"{"request": {"multipartPatterns": []}}"#,
         "invalid WireMock mapping at request.multipartPatterns: multipart matching is not supported"),
        (#"{"request": {}, "response": {"delayDistribution": {"type": "lognormal", "median": 80, "sigma": 0.4}}}"#,
         #"invalid WireMock mapping at response.delayDistribution.type: "lognormal" delays are not supported; the stub server draws delays uniformly ("uniform" with lower and upper) or uses fixedDelayMilliseconds"#),
        // A delay is at most an hour (StubDelay.maximumMilliseconds): a longer one is a typo that would hang the test.
        (#"{"request": {}, "response": {"fixedDelayMilliseconds": 99999999999}}"#,
         "invalid WireMock mapping at response.fixedDelayMilliseconds: is 99999999999 ms, more than a delay may be (3600000 ms, one hour)"),
        (#"{"request": {}, "response": {"delayDistribution": {"type": "uniform", "lower": 0, "upper": 3600001}}}"#,
         "invalid WireMock mapping at response.delayDistribution.upper: is 3600001 ms, more than a delay may be (3600000 ms, one hour)"),
        (#"{"request": {}, "response": {"fixedDelayMilliseconds": 3000000, "delayDistribution": {"type": "uniform", "lower": 0, "upper": 700000}}}"#,
         "invalid WireMock mapping at response.delayDistribution: with fixedDelayMilliseconds added, the longest delay is 3700000 ms, more than a delay may be (3600000 ms, one hour)"),
        (#"{"request": {}, "response": {"body": "abc", "chunkedDribbleDelay": {"numberOfChunks": 2, "totalDuration": 3600001}}}"#,
         "invalid WireMock mapping at response.chunkedDribbleDelay.totalDuration: is 3600001 ms, more than a delay may be (3600000 ms, one hour)"),
        (#"{"request": {}, "response": {"fault": "SOMETHING"}}"#,
         #"invalid WireMock mapping at response.fault: unknown fault "SOMETHING"; use one of CONNECTION_RESET_BY_PEER, EMPTY_RESPONSE, MALFORMED_RESPONSE_CHUNK, RANDOM_DATA_THEN_CLOSE"#),
        (#"{"request": {}, "response": {"fault": "EMPTY_RESPONSE", "status": 500}}"#,
         "invalid WireMock mapping at response: a fault sends no response; remove status"),
        (#"{"request": {}, "response": {"status": 404, "statusMessage": "Nope"}}"#,
         #"invalid WireMock mapping at response.statusMessage: the stub server sends the standard reason phrase "Not Found" for 404; a custom one ("Nope") is not supported"#),
        (#"{"request": {}, "response": {"body": "a", "jsonBody": {}}}"#,
         "invalid WireMock mapping at response: give at most one of body, jsonBody, base64Body and bodyFileName, not body and jsonBody"),
        (#"{"request": {}, "response": {"bodyFileName": "a.json"}}"#,
         "invalid WireMock mapping at response.bodyFileName: needs the __files folder beside the mappings: read them from a file or folder"),
        (#"{"request": {}, "response": {"status": 200}, "requiredScenarioState": "Started"}"#,
         "invalid WireMock mapping at requiredScenarioState: needs scenarioName"),
        (#"{"response": {}}"#, "invalid WireMock mapping at request: is missing"),
        (#"[1]"#, "invalid WireMock mapping at [0]: expected a mapping (an object)"),
        // WireMock 4 message stubs (wiremock.org/docs/messaging/stubbing/): what does not map onto a WebSocket stub.
        (#"{"name": "Echo stub", "trigger": {"type": "message", "message": {"body": {"matches": ".*"}}}, "actions": [{"type": "send", "channelTarget": {"type": "originating"}, "message": {"body": {"data": "Echo: {{message.body}}"}}}]}"#,
         #"invalid WireMock mapping at actions[0].message.body (mapping "Echo stub"): holds "{{": WireMock renders every text message it sends as a Handlebars template, and message templating is not supported"#),
        (#"{"mappings": [{"request": {}}, {"actions": [{"type": "send", "message": {"body": "x"}, "transformers": ["message-template"]}]}]}"#,
         "invalid WireMock mapping at mappings[1].actions[0].transformers: message transformers are not supported"),
        ("{\n  /* the stub\n", "invalid WireMock mapping at $: not JSON: line 2, column 3: a /* comment is never closed"),
        ("{'request: {}}", "invalid WireMock mapping at $: not JSON: line 1, column 2: a string is never closed"),
        ("# a comment\n{\"request\": {}}", "invalid WireMock mapping at $: not JSON: Invalid JSON at line 1, column 1 (byte 0): the top-level value is not an array or object (allow fragments to read it)."),
        (#""text""#, "invalid WireMock mapping at $: not JSON: Invalid JSON at line 1, column 1 (byte 0): the top-level value is not an array or object (allow fragments to read it)."),
    ]

    @Test(arguments: refusals) func refusalsNameTheMappingAndThePlace(_ json: String, _ message: String) {
        do {
            _ = try WireMockMappings.stubs(from: Data(json.utf8))
            Issue.record("no error for \(json)")
        } catch {
            #expect(error.description == message)
        }
    }

    /// Jackson with comments and single quotes allowed, as WireMock reads mappings: the same stubs as plain JSON.
    @Test func commentsAndSingleQuotesAreReadAsWireMockReadsThem() throws {
        let lenient = """
            // users.json: what the team stubs
            {
              "mappings": [ /* the first */
                {
                  'name': 'it\\'s "quoted"', // a trailing comment with "quotes" and 'apostrophes'
                  "request": { "method": "GET", "url": "/a//b" /* a URL with // inside */ },
                  "response": { "status": 200, "body": "/* not a comment */ // nor this" }
                }
              ]
            }
            """
        let plain = #"{"mappings": [{"name": "it's \"quoted\"", "request": {"method": "GET", "url": "/a//b"}, "response": {"status": 200, "body": "/* not a comment */ // nor this"}}]}"#
        let read = try WireMockMappings.stubs(from: Data(lenient.utf8))
        let expected = try WireMockMappings.stubs(from: Data(plain.utf8))
        #expect(read.map(\.name) == [#"it's "quoted""#])
        #expect(read.map(\.matcher) == expected.map(\.matcher))
        let registry = StubRegistry()
        for stub in read { registry.add(stub) }
        #expect(Self.answer(registry, RecordedRequest(method: .get, path: "/a//b")) == "200 /* not a comment */ // nor this")
        #expect(WireMockMappings.looksLikeMappings(Data(lenient.utf8)))
    }

    @Test func messageStubMappingsAreTakenForWireMock() {
        #expect(WireMockMappings.looksLikeMappings(Data(#"[{"trigger": {"type": "message"}, "actions": []}]"#.utf8)))
        #expect(WireMockMappings.looksLikeMappings(Data(#"{"messageMappings": [], "meta": {"total": 0}}"#.utf8)))
    }

    @Test func aBadRegularExpressionIsNamedWithWhatIsWrongAndWhere() {
        do {
            _ = try WireMockMappings.stubs(from: Data(#"{"request": {"urlPattern": "/a(["}}"#.utf8))
            Issue.record("no error")
        } catch {
            #expect(error.description == #"invalid WireMock mapping at request.urlPattern: invalid regular expression "/a([": expected custom character class members at offset 3"#)
        }
    }

    @Test func aMissingBodyFileAndABadFileInAFolderAreNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let mappings = directory.url.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        let bad = mappings.appendingPathComponent("b.json")
        try Data(#"{"request": {"url": "/ok"}}"#.utf8).write(to: mappings.appendingPathComponent("a.json"))
        try Data(#"{"mappings": [{"name": "missing body", "request": {}, "response": {"bodyFileName": "nope.json"}}]}"#.utf8).write(to: bad)
        do {
            _ = try WireMockMappings.stubs(inDirectory: directory.url)
            Issue.record("no error")
        } catch {
            let files = directory.url.appendingPathComponent("__files").standardizedFileURL.path
            #expect(error.description == #"invalid WireMock mapping in \#(bad.standardizedFileURL.path) at mappings[0].response.bodyFileName (mapping "missing body"): "nope.json" is not a readable file in \#(files) (which does not exist)"#)
            #expect(error.file == bad.standardizedFileURL.path)
        }
    }
}

/// H9: a `bodyFileName` of `../../../../../../etc/passwd` was served. WireMock confines body files to `__files`, and so
/// does the stub server, after resolving symbolic links.
@Suite struct WireMockBodyFileConfinementTests {
    static func refusal(_ bodyFileName: String, in directory: URL) -> String? {
        let mapping = JSONValue.object(["request": ["url": "/x"], "response": ["bodyFileName": .string(bodyFileName)]])
        do {
            try mapping.encoded.write(to: directory.appendingPathComponent("mappings/m.json"))
            _ = try WireMockMappings.stubs(inDirectory: directory)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func bodyFilesOutsideFilesAreRefusedNamingThePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let files = directory.url.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: files.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: files.appendingPathComponent("sub/body.txt"))
        try Data("outside".utf8).write(to: directory.url.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: files.appendingPathComponent("link.txt").path, withDestinationPath: "/etc/passwd")
        try FileManager.default.createSymbolicLink(atPath: files.appendingPathComponent("inner.txt").path, withDestinationPath: "sub/body.txt")
        let root = files.standardizedFileURL.path

        let escape = try #require(Self.refusal("../../../../../../etc/passwd", in: directory.url))
        #expect(escape.hasSuffix(#"at response.bodyFileName: "../../../../../../etc/passwd" leads out of \#(root) (to /etc/passwd); files must stay inside it"#), "\(escape)")
        #expect(Self.refusal("../secret.txt", in: directory.url)?.contains(#""../secret.txt" leads out of \#(root)"#) == true)
        #expect(Self.refusal("link.txt", in: directory.url)?.contains(#""link.txt" leads out of \#(root) (to /etc/passwd)"#) == true,
                "a symbolic link is resolved before the check")
        #expect(Self.refusal("/etc/passwd", in: directory.url)?.contains("is an absolute path") == true)
        #expect(Self.refusal("sub/../sub/body.txt", in: directory.url) == nil)
        #expect(Self.refusal("inner.txt", in: directory.url) == nil, "a link that stays inside is followed")
    }
}

@Suite struct ExtendedDefinitionTests {
    @Test func newConditionsReadBackFromTheirJSONForm() throws {
        let original = Stub(id: "x", RequestPattern(.post, .exact("/a"), headers: ["A": .doesNotMatch("b.*"), "B": .doesNotContain("c")],
                                                    body: .all([.jsonPath(JSONPath("$.a[0]"), .contains("z")), .jsonPath(JSONPath("$.b"), nil),
                                                                .jsonEquivalent(["k": [1]], ignoringArrayOrder: true, ignoringExtraElements: false)]),
                                                    url: .equalTo("/a?b=1"), cookies: ["s": .matches("[0-9]+")]),
                            response: .text("ok"))
        let decoded = try Stub.decode(try JSONEncoder().encode(original))
        #expect(decoded.matcher == original.matcher)
        let json = #"{"request": {"url": {"matches": "/a\\?.*"}, "cookies": {"s": "1"}, "body": {"json": [1], "ignoreExtraElements": true}}, "response": {}}"#
        let read = try Stub.decode(Data(json.utf8))
        #expect(read.matcher == RequestPattern(body: .jsonEquivalent([1], ignoringArrayOrder: false, ignoringExtraElements: true),
                                               url: .matches("/a\\?.*"), cookies: ["s": "1"]))
        #expect(read.matcher.matches(request(.get, "/a", query: "q", headers: ["Cookie": "t=2; s=1"], body: "[1, 2]")))
        #expect(!read.matcher.matches(request(.get, "/a", headers: ["Cookie": "s=1"], body: "[1]")))
        #expect(read.matcher.description == #"ANY any path with url matching //a\?.*/, cookie s equal to "1", JSON body [1] ignoring extra elements"#)
    }

    @Test func nearMissesNameUrlAndCookieDifferences() {
        let pattern = RequestPattern(.get, .exact("/a"), url: .equalTo("/a?x=1"), cookies: ["s": "1"])
        let differences = pattern.differences(request(.get, "/a", query: "x=2", headers: ["Cookie": "s=2"]))
        #expect(differences.map(\.description) == [#"url: expected equal to "/a?x=1", got "/a?x=2""#, #"cookie s: expected equal to "1", got "2""#])
    }
}
