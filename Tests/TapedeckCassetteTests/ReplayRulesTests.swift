import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// A cassette carries its replay rules: spelled as they print, stored in format version 3, applied by every replay
/// unless set in code, and refused with their place when malformed.
@Suite struct ReplayRulesTests {
    static let everyStorableRule: [[MatchRule]] = [
        [.method, .url], [.method, .host, .path, .query], [.body], [.form], [.multipart], [.headers("Accept", "X-Tenant")],
        [.json()], [.method, .path, .json(ignoring: ["$.user", "$.metadata", "items.*.ts"])], [.graphQL()],
        [.method, .host, .path, .graphQL(ignoringVariables: ["input.clientMutationId"])],
    ]

    @Test(arguments: everyStorableRule)
    func rulesReadBackAsTheyPrint(_ rules: [MatchRule]) throws {
        #expect(try MatchRule.parse(rules.spelled).spelled == rules.spelled)
        for rule in rules { #expect(try MatchRule.parseOne(rule.description).description == rule.description) }
    }

    @Test func theCommandLineSpellingsRead() throws {
        #expect(try MatchRule.parse("method,url,graphql").spelled == "method,url,graphql")
        #expect(try MatchRule.parse(" Method , PATH, json(ignoring: $.user)").spelled == "method,path,json(ignoring: $.user)")
        #expect(try MatchRule.parse("graphql(ignoring: a.b)").spelled == "graphql(ignoring variables: a.b)")
        // A comma inside a bracketed member name is part of the path, not a separator.
        #expect(try MatchRule.parse("json(ignoring: $['a,b'], $.c)").count == 1)
    }

    @Test func aWrongSpellingIsRefusedWithItsPlace() {
        func error(_ text: String) -> MatchRuleSpellingError? {
            do { _ = try MatchRule.parse(text); return nil } catch { return error }
        }
        let unknown = error("method,grapql")
        #expect(unknown?.position == 8)
        #expect(unknown?.description.contains("unknown rule \"grapql\"") == true)
        #expect(unknown?.description.contains("graphql") == true && unknown?.description.contains("json(ignoring: PATH, …)") == true)
        #expect(error("custom(x)")?.reason.contains("closure") == true)
        #expect(error("method(1)")?.reason == "method takes no argument")
        #expect(error("json(ignoring: $..a)")?.reason.contains("unsupported JSONPath") == true)
        #expect(error("json(skipping: $.a)")?.reason.contains("ignoring:") == true)
        #expect(error(" , ")?.reason.contains("no rule given") == true)
        #expect(error("headers()")?.reason.contains("names") == true)
        #expect(error("json(ignoring: $.a")?.reason.contains("parenthesis") == true)
    }

    @Test func aCassetteWithRulesIsVersionThreeAndReadsBack() throws {
        let rules = ReplayRules(matching: [.method, .host, .path, .graphQL(ignoringVariables: ["$.input.id"])],
                                allowPlaybackRepeats: true, pacing: .recorded(scale: 0.5), replayTime: .now)
        let cassette = Cassette(interactions: [interaction("POST", "http://127.0.0.1/graphql", body: "{}")], replayRules: rules)
        let data = CassetteCodec.encode(cassette)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": 3,\n  \"replay\": {\n    \"match\": ["))
        #expect(text.contains("\"pacing\": 0.5") && text.contains("\"clock\": \"now\"") && text.contains("\"repeats\": true"))
        let decoded = try CassetteCodec.decode(data)
        #expect(decoded.replayRules == rules)
        #expect(decoded == cassette)
        #expect(CassetteCodec.encode(decoded) == data)
    }

    @Test func aCassetteWithoutRulesIsWrittenAsBefore() {
        let cassette = Cassette(interactions: [interaction("GET", "http://127.0.0.1/a")])
        #expect(String(decoding: CassetteCodec.encode(cassette), as: UTF8.self).hasPrefix("{\n  \"version\": 1,\n  \"interactions\""))
    }

    @Test(arguments: [
        (#""version": 1, "replay": {"match": ["method"]}"#, "replay", "need format version 3, and the file says 1"),
        (#""version": 3, "replay": {"match": ["method", "grapql"]}"#, "replay.match[1]", "unknown rule \"grapql\""),
        (#""version": 3, "replay": {"match": [3]}"#, "replay.match[0]", "expected a rule as a string"),
        (#""version": 3, "replay": {"match": []}"#, "replay.match", "empty list"),
        (#""version": 3, "replay": {"match": ["custom(x)"]}"#, "replay.match[0]", "closure"),
        (#""version": 3, "replay": {"order": "strict"}"#, "replay.order", "unknown replay rule"),
        (#""version": 3, "replay": {"pacing": -1}"#, "replay.pacing", "at least 0"),
        (#""version": 3, "replay": {"clock": "wall"}"#, "replay.clock", "expected \"recorded\" or \"now\""),
        (#""version": 3, "replay": {"repeats": "yes"}"#, "replay.repeats", "true or false"),
        (#""version": 3, "replay": []"#, "replay", "expected an object"),
    ])
    func aMalformedStoredRuleIsRefusedAtItsPlace(_ top: String, _ place: String, _ reason: String) {
        let data = Data("{\(top), \"interactions\": []}".utf8)
        #expect {
            try CassetteCodec.decode(data, file: "rules.json")
        } throws: { error in
            guard case CassetteError.invalidFormat(file: "rules.json", path: place, let why) = error else { return false }
            return why.contains(reason)
        }
    }

    @Test func storedRulesApplyUnlessSetInCode() {
        let stored = ReplayRules(matching: [.method, .host, .path, .graphQL()], allowPlaybackRepeats: true, pacing: .recorded(scale: 1))
        let plain = CassetteConfiguration().replaying(stored)
        #expect(plain.matching.spelled == "method,host,path,graphql")
        #expect(plain.allowPlaybackRepeats && plain.timing == .recorded(scale: 1) && plain.replayTime == .recorded)
        #expect(CassetteConfiguration().overrides(of: stored).isEmpty)

        let mine = CassetteConfiguration(matching: [.method, .url], allowPlaybackRepeats: false)
        #expect(mine.replaying(stored).matching.spelled == "method,url")
        #expect(!mine.replaying(stored).allowPlaybackRepeats)
        #expect(mine.overrides(of: stored) == ["match method,url overrides the cassette's method,host,path,graphql",
                                                "no repeats overrides the cassette's repeats"])
    }

    @Test func whatARecordingStores() {
        // Defaults set in code store nothing, so re-recording with them leaves a version 1 file as it was.
        #expect(CassetteConfiguration(matching: [.method, .url], allowPlaybackRepeats: false).rulesToStore(over: ReplayRules()).rules.isEmpty)
        let chosen = CassetteConfiguration(matching: [.method, .path, .json()]).rulesToStore(over: ReplayRules(allowPlaybackRepeats: true))
        #expect(chosen.rules == ReplayRules(matching: [.method, .path, .json()], allowPlaybackRepeats: true))
        let custom = CassetteConfiguration(matching: [.method, .custom("tenant") { _, _ in true }])
            .rulesToStore(over: ReplayRules(matching: [.method, .url, .body]))
        #expect(custom.rules.matching?.spelled == "method,url,body")
        #expect(custom.notes.count == 1 && custom.notes[0].contains("custom(tenant) is a closure"))
    }
}
