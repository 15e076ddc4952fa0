import Foundation
import Testing
@testable import TapedeckCassette

@Suite struct ContractRulesTests {
    func answer(_ status: Int = 200, _ type: String? = "application/json", body: String) -> ContractRules.Answer {
        ContractRules.Answer(status: status, contentType: type, body: Data(body.utf8))
    }

    @Test func identicalShapesWithOtherValuesPass() {
        let rules = ContractRules()
        #expect(rules.check(recorded: answer(body: #"{"id":1,"name":"a","tags":["x"]}"#),
                            live: answer(200, "application/json; charset=utf-8", body: #"{"tags":["y","z"],"name":"b","id":2}"#)).isEmpty)
    }

    @Test func theQuickFitNeverPassesWhatTheFullComparisonRefuses() throws {
        let documents = try [
            #"{"id":1,"name":"a"}"#, #"{"id":2,"name":"b"}"#, #"{"name":"b","id":2}"#, #"{"id":"1","name":"a"}"#,
            #"{"id":1}"#, #"{"id":1,"name":"a","extra":true}"#, #"{"id":1,"id":"x","name":"a"}"#,
            #"[]"#, #"[1,2]"#, #"["a"]"#, #"[{"a":1},{"b":"x"}]"#, #"[{"b":"y"},{"a":2}]"#, #"[{"a":1},{"a":"1"}]"#,
            #"[[1],[2,3]]"#, #"[["x"]]"#, #"{"list":[{"k":[1]}]}"#, #"{"list":[{"k":["1"]}]}"#, #"{"list":[]}"#,
            "null", "true", "1", #""s""#, #"[1,1,1,1,"five"]"#, #"[1,2,3,4,5,6]"#, #"[{"a":1},{"a":1},{"a":1},{"a":1},{"b":1}]"#,
        ].map { try CassetteJSON.parse($0) }
        var quick = 0
        for recorded in documents {
            for live in documents {
                let full = JSONShape.collect(recorded: recorded, live: live, path: "$")
                if JSONShape.fits(recorded, live) {
                    quick += 1
                    #expect(full.isEmpty, "\(recorded) ~ \(live): \(full)")
                }
                #expect(JSONShape.violations(recorded: recorded, live: live) == full)
            }
        }
        #expect(quick > documents.count, "the quick fit answers more than identical pairs")
    }

    @Test func statusAndMediaTypeMustMatch() {
        let violations = ContractRules().check(recorded: answer(body: "{}"), live: answer(404, "text/html", body: "<h1>no</h1>"))
        #expect(violations.map(\.rule) == ["status", "content-type", "shape"])
        #expect(violations[0].line == "status: expected 200, got 404")
    }

    @Test func typeChangesMissingAndExtraKeysAreReportedWithPaths() {
        let recorded = try! CassetteJSON.parse(#"{"user":{"id":1,"roles":[{"name":"a"}]},"ok":true}"#)
        let live = try! CassetteJSON.parse(#"{"user":{"id":"1","roles":[{"name":"a"},{"name":2}],"extra":null}}"#)
        let lines = JSONShape.violations(recorded: recorded, live: live)
        #expect(lines.contains("$.user.id: expected number, got string"))
        #expect(lines.contains("$.user.roles[1].name: expected string, got number"))
        #expect(lines.contains("$.ok: missing (recorded as boolean)"))
        #expect(lines.contains("$.user.extra: unexpected key (null)"))
        #expect(lines.count == 4)
    }

    @Test func emptyRecordedArraysAcceptAnyElements() {
        #expect(JSONShape.violations(recorded: .array([]), live: .array([1, "a"])).isEmpty)
        #expect(JSONShape.violations(recorded: .array([1]), live: .array([])).isEmpty)
    }

    /// httpbin's `/json`: one slide has `items`, the other not; either may come back in either place.
    @Test func arrayElementsMayTakeAnyOfTheRecordedShapes() throws {
        let recorded = try CassetteJSON.parse(#"{"slides":[{"title":"Wake up","type":"all"},{"items":["Why"],"title":"Overview","type":"all"}]}"#)
        let live = try CassetteJSON.parse(#"{"slides":[{"items":["a","b"],"title":"x","type":"y"},{"title":"z","type":"all"},{"title":"w","type":"v"}]}"#)
        #expect(JSONShape.violations(recorded: recorded, live: live).isEmpty)
        #expect(JSONShape.violations(recorded: recorded, live: recorded).isEmpty)
        let mixed = try CassetteJSON.parse(#"[1, "a", null, {"k": [true]}]"#)
        #expect(JSONShape.violations(recorded: mixed, live: try CassetteJSON.parse(#"[{"k": [false, true]}, null, 3, "b"]"#)).isEmpty)
    }

    @Test func anElementThatFitsNoRecordedShapeIsReportedAgainstTheClosest() throws {
        let recorded = try CassetteJSON.parse(#"[{"a":1,"b":"x","c":true},{"z":null}]"#)
        let live = try CassetteJSON.parse(#"[{"a":"1","b":"x","c":true},{"z":null},7]"#)
        #expect(JSONShape.violations(recorded: recorded, live: live) == [
            "$[0].a: expected number, got string",
            "$[2]: expected object, got number",
        ])
    }

    @Test func elementsOfOneShapeAreCheckedOnce() throws {
        let many: [CassetteJSON] = (0..<1000).map { .object([.init("id", .number(String($0))), .init("name", .string("n\($0)"))]) }
        #expect(JSONShape.distinctShapes(many).count == 1)
        #expect(JSONShape.signature(try CassetteJSON.parse(#"{"b":[1,"x",2],"a":{}}"#)) == JSONShape.signature(try CassetteJSON.parse(#"{"a":{},"b":["y",3]}"#)))
    }

    @Test func fieldsCompareValuesSemantically() {
        let rules = ContractRules(fields: ["user.id", "items.0", "missing"])
        let violations = rules.check(recorded: answer(body: #"{"user":{"id":1.0},"items":["a"]}"#),
                                     live: answer(body: #"{"user":{"id":1},"items":["b"]}"#))
        #expect(violations.map(\.line) == [#"field: items.0: expected "a", got "b""#])
    }

    @Test func nonJSONRecordedBodiesAreNotShapeChecked() {
        #expect(ContractRules().check(recorded: answer(200, "text/plain", body: "hello"), live: answer(200, "text/plain", body: "bye")).isEmpty)
    }

    @Test func mediaTypeIgnoresParametersAndCase() {
        #expect(ContractRules.mediaType("Application/JSON ; charset=UTF-8") == "application/json")
        #expect(ContractRules.mediaType(nil) == nil)
    }
}
