import Testing
import TapedeckCore

/// The one JSON path syntax: both spellings, the errors, and selection over `JSONValue` (the differential test
/// against an RFC 9535 implementation and the `CassetteJSON` side are in TapedeckCassetteTests).
@Suite struct JSONPathTests {
    static let document: JSONValue = ["a": ["b": [1, 2, 3]], "list": [["id": 1], ["id": 2, "x": nil]], "odd key": "x", "0": "zero"]

    @Test func selectsMembersElementsAndWildcards() throws {
        #expect(try JSONPath("$" as String).select(in: Self.document) == [Self.document])
        #expect(try JSONPath("$.a.b[0]" as String).select(in: Self.document) == [1])
        #expect(try JSONPath("$.a.b[-1]" as String).select(in: Self.document) == [3])
        #expect(try JSONPath("$['odd key']" as String).select(in: Self.document) == ["x"])
        #expect(try JSONPath(#"$["odd key"]"# as String).select(in: Self.document) == ["x"])
        #expect(try JSONPath("$.list[*].id" as String).select(in: Self.document) == [1, 2])
        #expect(try JSONPath("$.*" as String).select(in: Self.document).count == 4)
        #expect(try JSONPath("$.a.b[7]" as String).select(in: Self.document).isEmpty)
        #expect(try JSONPath("$.a.b[-4]" as String).select(in: Self.document).isEmpty)
    }

    @Test func findsAndPrintsAsWireMocksMatchesJsonPathDoes() {
        let document: JSONValue = ["a": ["b": [1, 2, 3]], "list": [["id": 1], ["id": 2]], "empty": [:], "none": nil]
        #expect(JSONPath("$.list.*.id").texts(in: document) == ["[1,2]"])
        #expect(JSONPath("$.a").texts(in: document) == [#"{"b":[1,2,3]}"#])
        #expect(JSONPath("$.a.b[0]").texts(in: document) == ["1"])
        #expect(JSONPath("$.a.b[9]").texts(in: document).isEmpty)
        #expect(JSONPath("$.a.b.c").select(in: document).isEmpty)
        #expect(!JSONPath("$.list[*].missing").hasMatch(in: document))
        #expect(JSONPath("$.list[*].id").hasMatch(in: document))
        #expect(!JSONPath("$.empty").hasMatch(in: document))
        #expect(!JSONPath("$.none").hasMatch(in: document))
        #expect(!JSONPath("$.missing").hasMatch(in: document))
    }

    @Test func theShorthandSelectsWhatItsJSONPathSpellingSelects() throws {
        let pairs = [("a.b.0", "$.a.b[0]"), ("list.*.id", "$.list[*].id"), ("list.1", "$.list[1]"), ("0", "$['0']"),
                     ("odd key", "$['odd key']"), ("*", "$.*"), ("a.*", "$.a.*"), ("list.*.*", "$.list[*].*"), ("missing.x", "$.missing.x")]
        for (shorthand, full) in pairs {
            #expect(try JSONPath(shorthand).select(in: Self.document) == JSONPath(full).select(in: Self.document), "\(shorthand)")
            #expect(JSONPath(dotted: shorthand).select(in: Self.document) == (try JSONPath(full)).select(in: Self.document))
        }
        // A dotted step written as an index names an element, in both spellings; `00` is a member name only.
        #expect(try JSONPath("$.a.b.2" as String).select(in: Self.document) == [3])
        #expect(try JSONPath("a.b.00" as String).select(in: Self.document).isEmpty)
    }

    @Test func matchesPlacesAsCassetteRulesNameThem() throws {
        #expect(JSONPath(dotted: "items.*.token").matches(dottedLocation: "items.3.token"))
        #expect(try JSONPath("$.items[3].token" as String).matches(dottedLocation: "items.3.token"))
        #expect(try JSONPath("$.items[*]" as String).matches(dottedLocation: "items.x"))
        #expect(try !JSONPath("$.items[-1]" as String).matches(dottedLocation: "items.0"))
        #expect(try JSONPath("$['a.b'].c" as String).matches(dottedLocation: "a.b.c"))
        #expect(try JSONPath("user.token" as String).matches(dottedLocation: "user.token"))
        #expect(try !JSONPath("user.token" as String).matches(dottedLocation: "user.token.x"))
        #expect(try !JSONPath("user.token" as String).matches(dottedLocation: "user"))
        #expect(try JSONPath("$user.x" as String).matches(dottedLocation: "$user.x"))
    }

    @Test func refusesWhatItDoesNotEvaluateNamingThePlace() {
        func error(_ expression: String) -> String {
            do {
                _ = try JSONPath(expression)
                return "none"
            } catch { return error.description }
        }
        #expect(error("$..a") == #"unsupported JSONPath "$..a" at character 2: deep scan ("..") is not supported"#)
        #expect(error("$.a[?(@.b)]") == #"unsupported JSONPath "$.a[?(@.b)]" at character 4: filter expressions ("[?(...)]") are not supported"#)
        #expect(error("$.a.length()") == #"unsupported JSONPath "$.a.length()" at character 5: functions ("length()") are not supported"#)
        #expect(error("$.a[1:2]") == #"unsupported JSONPath "$.a[1:2]" at character 4: "[1:2]" is not supported: use [N], [*] or ['name']"#)
        #expect(error("$.a[") == #"unsupported JSONPath "$.a[" at character 4: "[" is not closed"#)
        #expect(error("$.a.") == #"unsupported JSONPath "$.a." at character 4: it ends with ".""#)
        #expect(error("$.[0]") == #"unsupported JSONPath "$.[0]" at character 2: a member name is missing after ".""#)
        #expect(error("$['a','b']") == #"unsupported JSONPath "$['a','b']" at character 2: several names in one bracket ("['a','b']") are not supported"#)
        #expect(error("$x") == "none")
        #expect(error("a..b") == "none")
    }

    @Test func definiteness() throws {
        #expect(try JSONPath("$.a[0]" as String).isDefinite)
        #expect(try !JSONPath("a.*" as String).isDefinite)
        #expect(try !JSONPath("$[*]" as String).isDefinite)
    }
}
