import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// `JSONPath` over both trees, checked two ways: the places cassette rules name (ignored paths, JSON-path redaction)
/// against the dotted matcher those rules used before there was one path type, and selection against
/// `jsonpath-rfc9535` 1.0.1 (an RFC 9535 implementation from PyPI, pinned in Tools/dev/test.sh).
@Suite struct JSONPathDifferentialTests {
    static let documents = [
        #"{"user":{"id":7,"token":"t","name.first":"Ada"},"items":[{"id":1,"token":"a"},{"id":2,"tags":["x","y"]}],"0":{"1":true}}"#,
        #"[{"a":{"b":[1,{"c":null}]}},{"a":{"b":[]}},3,"s",{"*":{"b":2}}]"#,
        #"{"a.b":{"c":1},"a":{"b":{"c":2}},"":{"":0},"odd key":[[1,2],[3]]}"#,
        #"{"data":{"nodes":[{"id":"n1","edges":[{"to":"n2"}]},{"id":"n2","edges":[]}],"count":2}}"#,
    ]

    /// The places a walk names, as `Redaction` and `CassetteJSON.firstDifference` spell them.
    static func places(in value: CassetteJSON, at path: String = "") -> [String] {
        func child(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
        switch value {
        case .object(let members): return members.flatMap { [child($0.key)] + places(in: $0.value, at: child($0.key)) }
        case .array(let elements): return elements.indices.flatMap { [child("\($0)")] + places(in: elements[$0], at: child("\($0)")) }
        default: return []
        }
    }

    /// The dotted matcher cassette rules used before `JSONPath` (`JSONPathPattern` in CassetteJSON.swift at d678a78).
    static func legacyMatches(_ path: String, _ pattern: String) -> Bool {
        if pattern == path || pattern == "$." + path { return true }
        guard pattern.contains("*") else { return false }
        let segments = path.split(separator: ".", omittingEmptySubsequences: false)
        var parts = pattern.split(separator: ".", omittingEmptySubsequences: false)
        if parts.first == "$" { parts.removeFirst() }
        return parts.count == segments.count && zip(parts, segments).allSatisfy { $0 == "*" || $0 == $1 }
    }

    static let dottedPatterns = ["user.token", "items.*.token", "items.0.id", "*", "*.*", "*.a.b.*.c", "a.b.c", "a.b", "a.*.c",
                                 "0.1", "*.*.b", ".", "", "odd key.0.1", "data.nodes.*.edges.*.to", "data.*", "a.b.*", "*.b"]

    @Test func bothSpellingsNameTheSamePlacesAsBefore() throws {
        for text in Self.documents {
            let places = Self.places(in: try CassetteJSON.parse(text))
            for pattern in Self.dottedPatterns {
                let shorthand = try JSONPath(pattern)
                let expected = places.filter { Self.legacyMatches($0, pattern) }
                #expect(places.filter { shorthand.matches(dottedLocation: $0) } == expected, "\(pattern) in \(text)")
                guard !pattern.isEmpty, !pattern.hasPrefix("."), !pattern.contains("..") else { continue }
                let full = try JSONPath("$." + pattern)
                #expect(places.filter { full.matches(dottedLocation: $0) } == expected, "$.\(pattern) in \(text)")
                #expect(places.filter { Self.legacyMatches($0, "$." + pattern) } == expected)
            }
        }
    }

    static let queries = ["$", "$.user", "$.user.id", "$.items[0].id", "$.items[-1].tags[1]", "$.items[*].id", "$.items[*].token",
                          "$.*", "$[*]", "$[0].a.b[1].c", "$[*].a.b", "$[-2]", "$[4]['*'].b", "$['a.b'].c", "$.a.b.c", "$[''][''][0]",
                          "$['odd key'][*][0]", "$.data.nodes[*].edges[*].to", "$.data.*", "$.data.nodes[1].edges[*]", "$.missing[0]",
                          #"$["user"]['id']"#, "$.items[5]", "$.*.*", "$[*].*"]

    struct Case: Encodable {
        var query: String
        var document: String
    }

    @Test func selectsWhatAnRFC9535ImplementationSelects() async throws {
        guard let python = ExternalCommand.find("python3") else { try Test.cancel("python3 not found on PATH") }
        let script = #"""
        import importlib.metadata, json, sys
        import jsonpath_rfc9535
        assert importlib.metadata.version("jsonpath-rfc9535") == "1.0.1", "jsonpath-rfc9535 1.0.1 is pinned"
        print(json.dumps([[json.dumps(v, separators=(",", ":")) for v in jsonpath_rfc9535.find(c["query"], json.loads(c["document"])).values()]
                          for c in json.load(sys.stdin)]))
        """#
        let cases = Self.documents.flatMap { document in Self.queries.map { Case(query: $0, document: document) } }
        let output = try await ExternalCommand.run(python, ["-c", script], input: try JSONEncoder().encode(cases))
        try #require(output.status == 0, "python3 failed (is jsonpath-rfc9535 1.0.1 installed? Tools/dev/test.sh installs it): \(output.standardError)")
        let expected = try JSONDecoder().decode([[String]].self, from: output.standardOutput)
        try #require(expected.count == cases.count)
        for (item, python) in zip(cases, expected) {
            let path = try JSONPath(item.query)
            let canonical = python.map { text in String(decoding: CassetteJSON.serialize(try! CassetteJSON.parse(text)), as: UTF8.self) }
            let tree = try CassetteJSON.parse(item.document)
            let mine = path.select(in: tree).map { String(decoding: CassetteJSON.serialize($0), as: UTF8.self) }
            #expect(mine == canonical, "CassetteJSON: \(item.query) in \(item.document)")
            // `JSONValue` keeps no member order (a wildcard visits members by key), so compare what is selected.
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(item.document.utf8))
            let selected = path.select(in: value).map { JSONValue.array([$0]).templateText }.sorted()
            let fromPython = try python.map { JSONValue.array([try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))]).templateText }.sorted()
            #expect(selected == fromPython, "JSONValue: \(item.query) in \(item.document)")
        }
    }
}
