import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCore
import TapedeckTestSupport

/// The `jsonrpc` rule matches JSON-RPC calls by method and params whatever their ids, and replay answers each with
/// the caller's ids and progress tokens: in a JSON body, a batch, and every event of a streamed answer.
@Suite struct JSONRPCMatchingTests {
    static let endpoint = "http://127.0.0.1:4100/mcp"

    static func call(_ id: Int, _ method: String, _ params: String? = nil) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""# + (params.map { #","params":\#($0)"# } ?? "") + "}"
    }

    static func recorded(_ body: String, answer: String, contentType: String = "application/json", chunks: [TimedChunk]? = nil) -> Interaction {
        Interaction(
            request: .init(method: "POST", url: endpoint, headers: ["Content-Type": "application/json"], body: CassetteBody(Data(body.utf8))),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": contentType, "Content-Length": String(answer.utf8.count)],
                                     body: CassetteBody(Data(answer.utf8)), chunks: chunks)))
    }

    static func post(_ body: String) -> HTTPRequest {
        HTTPRequest(method: .post, url: URL(string: endpoint)!, headers: ["Content-Type": "application/json"], body: .data(Data(body.utf8)))
    }

    /// An MCP-like session: four calls and a notification, recorded with ids 1 to 4.
    static func session() -> Cassette {
        Cassette(interactions: [
            recorded(call(1, "initialize", #"{"protocolVersion":"2025-06-18","capabilities":{}}"#),
                     answer: #"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"weather"}}}"#),
            recorded(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, answer: ""),
            recorded(call(2, "tools/list"), answer: #"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"get_weather"}]}}"#),
            recorded(call(3, "tools/call", #"{"name":"get_weather","arguments":{"city":"Paris"},"_meta":{"progressToken":"p-3"}}"#),
                     answer: #"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Paris: 18C"}]}}"#),
            recorded(call(4, "tools/call", #"{"name":"get_weather","arguments":{"city":"Oslo"}}"#),
                     answer: #"{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"Oslo: 4C"}],"isError":false}}"#),
        ], replayRules: ReplayRules(matching: [.method, .url, .jsonRPC()]))
    }

    static func replayer(_ cassette: Cassette, in directory: TemporaryDirectory, allowingRepeats: Bool = false) throws -> CassetteTransport {
        let file = directory.cassette("session.json")
        try CassetteFile.save(cassette, to: file)
        return try openCassette(file, mode: .replay, configuration: CassetteConfiguration(allowPlaybackRepeats: allowingRepeats))
    }

    static func json(_ response: HTTPResponse) throws -> CassetteJSON {
        try CassetteJSON.parse(response.data ?? Data())
    }

    @Test func callsInAnotherOrderWithOtherIdsGetTheirOwnAnswersWithTheCallersIds() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try Self.replayer(Self.session(), in: directory)
        // Reversed, renumbered from 100, members reordered and spaced, a progress token of the caller's own.
        let oslo = try await replay.send(Self.post(#"{"method": "tools/call", "params": {"arguments": {"city": "Oslo"}, "name": "get_weather"}, "id": 100, "jsonrpc": "2.0"}"#))
        #expect(try Self.json(oslo)["id"] == .number("100"))
        #expect(String(decoding: oslo.data ?? Data(), as: UTF8.self).contains("Oslo: 4C"))
        #expect(oslo.headers["Content-Length"] == String(oslo.data?.count ?? -1), "the length follows the renumbered body")
        let paris = try await replay.send(Self.post(Self.call(101, "tools/call", #"{"name":"get_weather","arguments":{"city":"Paris"},"_meta":{"progressToken":"mine"}}"#)))
        #expect(try Self.json(paris)["id"] == .number("101"))
        #expect(String(decoding: paris.data ?? Data(), as: UTF8.self).contains("Paris: 18C"))
        // A string id comes back a string.
        let tools = try await replay.send(Self.post(#"{"jsonrpc":"2.0","id":"t-7","method":"tools/list"}"#))
        #expect(try Self.json(tools)["id"] == .string("t-7"))
        let notified = try await replay.send(Self.post(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#))
        #expect(notified.statusCode == 200 && (notified.data ?? Data()).isEmpty)
        let initialized = try await replay.send(Self.post(Self.call(1, "initialize", #"{"capabilities":{},"protocolVersion":"2025-06-18"}"#)))
        #expect(initialized.data == Data(#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"weather"}}}"#.utf8),
                "the same id: the recorded bytes as they are")
        #expect(try replay.finish().unplayed.isEmpty)
    }

    /// A test suite opens many sessions against one cassette: each opens (initialize, its notifications, the GET
    /// event stream), lists tools and closes (DELETE) again, while each recorded call is still answered once.
    @Test func everySessionIsOpenedAndClosedWhileCallsAreAnsweredOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var cassette = Self.session()
        let url = URL(string: Self.endpoint)!
        cassette.interactions.append(Interaction(
            request: .init(method: "GET", url: Self.endpoint, headers: ["Accept": "text/event-stream"]),
            outcome: .response(.init(statusCode: 200, headers: ["Content-Type": "text/event-stream"], body: CassetteBody(Data())))))
        cassette.interactions.append(Interaction(request: .init(method: "DELETE", url: Self.endpoint),
                                                 outcome: .response(.init(statusCode: 200, body: CassetteBody(Data())))))
        let replay = try Self.replayer(cassette, in: directory)
        for run in 0..<3 {
            let opened = try await replay.send(Self.post(Self.call(10 + run, "initialize", #"{"protocolVersion":"2025-06-18","capabilities":{}}"#)))
            #expect(try Self.json(opened)["id"] == .number(String(10 + run)))
            #expect(try await replay.send(Self.post(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)).statusCode == 200)
            #expect(try await replay.send(HTTPRequest(url: url, headers: ["Accept": "text/event-stream"])).statusCode == 200)
            // Listing is discovery, answered again; a call is answered once.
            #expect(try await replay.send(Self.post(Self.call(20 + run, "tools/list"))).statusCode == 200)
            let called = try? await replay.send(Self.post(Self.call(30 + run, "tools/call", #"{"name":"get_weather","arguments":{"city":"Oslo"}}"#)))
            #expect((called != nil) == (run == 0), "the call is answered once, run \(run)")
            #expect(try await replay.send(HTTPRequest(method: .delete, url: url)).statusCode == 200)
        }
    }

    @Test func aCallWithOtherParamsIsAMissThatNamesWhere() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let replay = try Self.replayer(Self.session(), in: directory)
        await #expect {
            try await replay.send(Self.post(Self.call(9, "tools/call", #"{"name":"get_weather","arguments":{"city":"Rome"}}"#)))
        } throws: { error in
            let text = "\(error)"
            return text.contains("tools/call get_weather: params differ at params.arguments.city")
        }
        // A call never matches a notification of the same method, nor the other way round.
        await #expect(throws: CassetteError.self) {
            try await replay.send(Self.post(#"{"jsonrpc":"2.0","method":"tools/list"}"#))
        }
    }

    @Test func aBatchIsAnsweredElementByElementWithTheCallersIds() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let batch = "[" + Self.call(1, "eth_blockNumber") + "," + Self.call(2, "eth_getBalance", #"["0xabc","latest"]"#) + "]"
        let answer = #"[{"jsonrpc":"2.0","id":2,"result":"0x10"},{"jsonrpc":"2.0","id":1,"result":"0x5"}]"#
        let replay = try Self.replayer(Cassette(interactions: [Self.recorded(batch, answer: answer)],
                                                replayRules: ReplayRules(matching: [.method, .url, .jsonRPC()])), in: directory)
        let live = "[" + Self.call(51, "eth_blockNumber") + "," + Self.call(52, "eth_getBalance", #"["0xabc","latest"]"#) + "]"
        let response = try await replay.send(Self.post(live))
        let elements = try #require(try Self.json(response).arrayValue)
        #expect(elements.map { $0["id"] } == [.number("52"), .number("51")])
        #expect(elements.map { $0["result"] } == [.string("0x10"), .string("0x5")])
    }

    @Test func aStreamedAnswerCarriesTheCallersIdAndProgressTokenInEveryEvent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let events = [
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"p-3\",\"progress\":1}}\n\n",
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"sampling/createMessage\",\"params\":{}}\n\n",
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[]}}\n\n",
        ]
        let chunks = events.enumerated().map { TimedChunk(byteCount: $1.utf8.count, at: Double($0) * 0.1) }
        let recorded = Self.recorded(Self.call(3, "tools/call", #"{"name":"slow","_meta":{"progressToken":"p-3"}}"#),
                                     answer: events.joined(), contentType: "text/event-stream", chunks: chunks)
        let replay = try Self.replayer(Cassette(interactions: [recorded], replayRules: ReplayRules(matching: [.method, .url, .jsonRPC()])),
                                       in: directory)
        let response = try await replay.send(Self.post(Self.call(77, "tools/call", #"{"name":"slow","_meta":{"progressToken":"caller-token"}}"#)))
        let text = String(decoding: response.data ?? Data(), as: UTF8.self)
        #expect(text.contains(#""progressToken":"caller-token""#) && !text.contains("p-3"))
        #expect(text.contains(#"{"jsonrpc":"2.0","id":77,"result":{"content":[]}}"#))
        #expect(text.contains(#""id":0,"method":"sampling/createMessage""#), "the server's own request keeps its id")
        #expect(text.hasSuffix("\n\n") && text.components(separatedBy: "\n\n").count == 4)

        // The chunks still add up and still end where the events do.
        let stored = try CassetteFile.load(directory.cassette("session.json")).interactions[0]
        let renumbered = stored.answeringJSONRPC(Data(Self.call(77, "tools/call", #"{"name":"slow","_meta":{"progressToken":"caller-token"}}"#).utf8))
        let newChunks = try #require(renumbered.response?.chunks)
        let body = try #require(renumbered.response?.body.inlineData)
        #expect(newChunks.count == 3 && newChunks.reduce(0) { $0 + $1.byteCount } == body.count)
        var offset = 0
        for chunk in newChunks {
            offset += chunk.byteCount
            #expect(body.prefix(offset).suffix(2) == Data("\n\n".utf8))
        }
        #expect(newChunks.map(\.at) == chunks.map(\.at))
    }

    /// The answer to a call sent again but for its id is renumbered without reading the bodies (only the ids); it
    /// must come out as the full reading's would: the caller's id of either type, nothing else changed, and a client's
    /// response to the server (which has an id too, but is not a call) left alone.
    @Test func aCallSentAgainButForItsIdGetsTheCallersIdAndAResponseKeepsItsAnswer() throws {
        let answer = #"{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"id","id":5}]}}"#
        let recorded = Self.recorded(Self.call(5, "tools/list", #"{"_meta":{"progressToken":5}}"#), answer: answer)
        let numbered = recorded.answeringJSONRPC(Data(Self.call(9, "tools/list", #"{"_meta":{"progressToken":5}}"#).utf8))
        #expect(numbered.response?.body.inlineData == Data(#"{"jsonrpc":"2.0","id":9,"result":{"tools":[{"name":"id","id":5}]}}"#.utf8))
        #expect(numbered.response?.headers["Content-Length"] == "66")
        let named = recorded.answeringJSONRPC(Data(#"{"jsonrpc":"2.0","id":"nine","method":"tools/list","params":{"_meta":{"progressToken":5}}}"#.utf8))
        #expect(try CassetteJSON.parse(named.response?.body.inlineData ?? Data())["id"] == .string("nine"))
        #expect(recorded.answeringJSONRPC(Data(Self.call(5, "tools/list", #"{"_meta":{"progressToken":5}}"#).utf8)) == recorded)
        #expect(recorded.answeringJSONRPC(Data(Self.call(5, "tools/list", #"{"_meta":{"progressToken":5} }"#).utf8)) == recorded,
                "the same id laid out otherwise: nothing to renumber")

        let reply = Self.recorded(#"{"jsonrpc":"2.0","id":0,"result":{"ok":true}}"#, answer: #"{"jsonrpc":"2.0","id":0,"result":{}}"#)
        #expect(reply.answeringJSONRPC(Data(#"{"jsonrpc":"2.0","id":3,"result":{"ok":true}}"#.utf8)) == reply,
                "a client's response is not a call: its answer keeps the recorded ids")
    }

    /// The quick checks never say more than the full reading: over byte mutations of JSON-RPC bodies (a byte
    /// changed, dropped or doubled), whenever `isCall` says yes the body reads as one call or notification, and
    /// whenever `sameButForID` pairs two bodies they read as the same messages but for their ids.
    @Test func theQuickChecksAgreeWithTheFullReadingOnMutatedBodies() throws {
        let seeds = [Self.call(7, "tools/call", #"{"name":"x","arguments":{"q":"a\"b","n":[1,2.5,{"k":null}]},"_meta":{"progressToken":"t"}}"#),
                     #"{ "method" : "ping", "jsonrpc" : "2.0", "id" : "s-1" }"#, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#]
        var random = SplitMix64(seed: 11)
        let bytes: [UInt8] = Array(#"{}[]",:\ 0aeE.-+"#.utf8) + [0x00, 0x7F, 0xC3]
        var saidCall = 0, paired = 0
        for _ in 0..<20_000 {
            var body = Array(seeds[Int(random.next() % UInt64(seeds.count))].utf8)
            for _ in 0...(random.next() % 3) {
                let at = Int(random.next() % UInt64(body.count))
                switch random.next() % 3 {
                case 0: body[at] = bytes[Int(random.next() % UInt64(bytes.count))]
                case 1: body.remove(at: at)
                default: body.insert(body[at], at: at)
                }
                if body.isEmpty { break }
            }
            let data = Data(body)
            if JSONRPCQuickComparison.isCall(data) {
                saidCall += 1
                guard case .messages(let messages, false) = JSONRPCBody.read(data), messages.count == 1, messages[0].kind != .response else {
                    Issue.record("isCall said yes to \(String(decoding: data, as: UTF8.self))")
                    continue
                }
            }
            let renumbered = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""id":7"#, with: #""id":"other""#).utf8)
            if renumbered != data, JSONRPCQuickComparison.sameButForID(data, renumbered), JSONRPCQuickComparison.isCall(data) {
                paired += 1
                let a = JSONRPCBody.read(data).comparable(ignoring: []), b = JSONRPCBody.read(renumbered).comparable(ignoring: [])
                #expect(a != nil && a == b, "\(String(decoding: data, as: UTF8.self))")
            }
        }
        #expect(saidCall > 1000 && paired > 100, "the mutations reach both checks: \(saidCall) calls, \(paired) pairs")
    }

    @Test func rulesAreSpelledAndReadBack() throws {
        let rules = try MatchRule.parse("method,url,jsonrpc(ignoring params: cursor, $.arguments.requestId)")
        #expect(rules.spelled == "method,url,jsonrpc(ignoring params: $.arguments.requestId, cursor)")
        #expect(try MatchRule.parse(rules.spelled).spelled == rules.spelled)
        #expect(try MatchRule.parseOne("JSON-RPC").description == "jsonrpc")
    }

    @Test func ignoredParamsAndMetadataAreNotCompared() {
        var player = CassettePlayer(cassette: Self.session(), matching: [.method, .url, .jsonRPC(ignoringParams: ["arguments.city"])])
        let live = Interaction.Request(method: "POST", url: Self.endpoint, headers: ["Content-Type": "application/json"],
                                       body: CassetteBody(Data(Self.call(5, "tools/call", #"{"name":"get_weather","arguments":{"city":"Rome"},"_meta":{"x":1}}"#).utf8)))
        guard case .success(let playback) = player.play(live) else { Issue.record("no match"); return }
        #expect(playback.index == 3, "the first tools/call get_weather, its city ignored")
    }

    @Test func aRecordingOfJSONRPCStoresTheRuleAndNamesMalformedBodies() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.cassette("recorded.json")
        let recorder = try openCassette(file, mode: .once, upstream: Echo())
        _ = try await recorder.send(Self.post(Self.call(1, "initialize")))
        _ = try await recorder.send(Self.post(#"{"jsonrpc":"2.0","id":2,"method":7}"#))
        let summary = try recorder.finish()
        #expect(try CassetteFile.load(file).replayRules.matching?.spelled == "method,url,jsonrpc")
        #expect(summary.notes.contains { $0.contains("stored match rules method,url,jsonrpc") }, "\(summary.notes)")
        #expect(summary.notes.contains { $0.contains(#"interaction #1 POST \#(Self.endpoint) says it is JSON-RPC but "method" is not a string"#) },
                "\(summary.notes)")
    }

    /// The quick comparison (no JSON read) says yes only for the same bytes but a top-level id's value.
    @Test func theQuickComparisonLooksOnlyPastTheTopLevelID() {
        func same(_ a: String, _ b: String) -> Bool { JSONRPCQuickComparison.sameButForID(Data(a.utf8), Data(b.utf8)) }
        #expect(same(#"{"jsonrpc":"2.0","id":1,"method":"m"}"#, #"{"jsonrpc":"2.0","id":"abc-9","method":"m"}"#))
        #expect(same(#"{ "id" : 12 , "method":"m","params":{"id":1}}"#, #"{ "id" : 3 , "method":"m","params":{"id":1}}"#))
        #expect(!same(#"{"id":1,"method":"m","params":{"id":1}}"#, #"{"id":1,"method":"m","params":{"id":2}}"#), "a nested id is compared")
        #expect(!same(#"{"method":"m","x":""id":1"}"#, #"{"method":"m","x":""id":2"}"#), "an id inside a string is compared")
        #expect(!same(#"{"id":null,"method":"m"}"#, #"{"id":null,"method":"m"}"#), "a null id takes the full reading")
        #expect(!same(#"[{"id":1,"method":"m"}]"#, #"[{"id":2,"method":"m"}]"#), "a batch takes the full reading")
        #expect(!same(#"{"id":1,"method":"m"}"#, #"{"id":1,"method":"n"}"#))
    }

    @Test func canonicalJSONEqualsExactlyWhereTheComparisonDoes() throws {
        let pairs: [(String, String, Bool)] = [
            (#"{"b":1.0,"a":[true,null]}"#, #"{"a":[true,null],"b":1}"#, true),
            (#"{"a":"x\"y"}"#, #"{"a":"x\"y"}"#, true),
            (#"{"a":1}"#, #"{"a":"1"}"#, false),
            (#"[1,2]"#, #"[2,1]"#, false),
            (#"{"a":1e2}"#, #"{"a":100}"#, true),
            (#"{"a":0.1}"#, #"{"a":0.10}"#, true),
        ]
        for (left, right, equal) in pairs {
            let a = try CassetteJSON.parse(Data(left.utf8)), b = try CassetteJSON.parse(Data(right.utf8))
            #expect((a.canonical() == b.canonical()) == equal, "\(left) vs \(right)")
            #expect(a.semanticallyEquals(b) == equal, "\(left) vs \(right)")
        }
        let ignored = try CassetteJSON.parse(Data(#"{"a":1,"meta":{"t":2}}"#.utf8)).canonical(ignoring: ["meta"])
        #expect(ignored == #"{"a":1}"#)
    }

    /// An upstream that answers each request with a JSON-RPC result for its id.
    struct Echo: HTTPTransport {
        func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
            let head = HTTPResponseHead(statusCode: 200, headers: ["Content-Type": "application/json"], url: request.url)
            let response = HTTPResponse(head: head, body: .data(Data(#"{"jsonrpc":"2.0","id":1,"result":{}}"#.utf8)))
            onEvent?(.responseHead(head))
            onEvent?(.completed(response))
            return response
        }
    }
}
