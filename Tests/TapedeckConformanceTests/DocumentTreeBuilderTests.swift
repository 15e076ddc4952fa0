import Foundation
import Testing
@testable import TapedeckConformance
import TapedeckYAML

/// `DocumentNode.yaml` composes straight from libyaml's events: YAML that is not well formed is refused in the words
/// and at the place that composing through Yams gives, and what OpenAPI's YAML leaves out at its own place.
@Suite struct DocumentTreeBuilderTests {
    static func refusal(_ run: () throws -> Void) -> String? {
        do { try run() } catch let error as YAMLDocumentError { return error.description } catch { return "\(error)" }
        return nil
    }

    @Test(arguments: [
        "a: [1, 2",
        "a: b: c",
        "a: 'unterminated",
        "\tkey: x",
        "key: [a, b]]",
        "- a\nb: c",
        "a: *missing",
        "a: 1\n---\nb: 2",
        "a: \u{1}",
        "a: &x [1, *x]",
        "{a: 1, b: [2, {c: }",
    ])
    func refusesBadYAMLAsComposingThroughYamsDoes(_ text: String) throws {
        let throughYams = Self.refusal { _ = try YAMLDocument.compose(text, resolver: .basic) }
        let straight = Self.refusal { _ = try DocumentNode.yaml(text) }
        #expect(throughYams != nil, "Yams refuses \(text.debugDescription)")
        #expect(straight == throughYams)
    }

    @Test(arguments: [
        ("a: 1\nb: 2\na: 3", "3:1: not valid YAML: the key 'a' is repeated in one mapping (first at 1:1)"),
        ("{x: 1, \"x\": 2}", "1:8: not valid YAML: the key 'x' is repeated in one mapping (first at 1:2)"),
        ("x: !!binary abc", "1:4: the tag !!binary is not one OpenAPI allows (only the JSON schema's: !!str, !!int, !!float, !!bool, !!null, !!seq, !!map)"),
        ("x: !thing {a: 1}", "1:4: the tag !thing is not one OpenAPI allows (only the JSON schema's: !!str, !!int, !!float, !!bool, !!null, !!seq, !!map)"),
        ("a: {<<: 5}", "1:9: a << merge takes a mapping or a list of mappings"),
        ("a: {<<: [{b: 1}, 2]}", "1:9: a << merge takes a mapping or a list of mappings"),
        ("? [a]\n: 1", "1:3: a mapping key must be a string (OpenAPI's YAML allows no other keys)"),
        ("base: &b {k: v}\nuse: {*b : 1}", "2:7: a mapping key must be a string (OpenAPI's YAML allows no other keys)"),
    ])
    func refusesWhatOpenAPILeavesOutAtItsPlace(_ text: String, _ expected: String) {
        #expect(Self.refusal { _ = try DocumentNode.yaml(text) } == expected)
    }

    /// Keys that are not repeats: the same text with another tag (the later wins, as after Yams), and a plain `<<`
    /// beside a quoted one (a merge and an ordinary key).
    @Test func keepsKeysThatOnlyLookAlike() throws {
        let tagged = try DocumentNode.yaml("{1: a, !!int 1: b}")
        guard case .object(let keys, let members) = tagged.content, case .yaml(let value)? = members["1"]?.content else {
            Issue.record("not a mapping of one key")
            return
        }
        #expect(keys == ["1"])
        #expect(value.string == "b")
        let empty = try DocumentNode.yaml("")
        guard case .yaml(let scalar) = empty.content else { Issue.record("an empty stream is not a scalar"); return }
        #expect(scalar.string.isEmpty)
    }
}
