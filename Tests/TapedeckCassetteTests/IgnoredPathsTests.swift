import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCore

/// `IgnoredPaths`, the walk that canonical JSON and `firstDifference` follow, against the dotted matcher it stands in
/// for (`JSONPathPattern.matches`): at every place of every document, from the root and from a starting place, for
/// every path the differential suite uses and for sets of them.
@Suite struct IgnoredPathsTests {
    static let patterns: [JSONPath] = (JSONPathDifferentialTests.dottedPatterns + JSONPathDifferentialTests.queries).compactMap { try? JSONPath($0) }
        + [JSONPath(dotted: "a.b.c"), "$['a.b'].c", "$.items[-1]", "$['name.first']"]

    /// Every place below `value` (at dotted `path`) the walk does not ignore, each with the walk's verdict, in order.
    static func walked(_ value: CassetteJSON, _ ignored: IgnoredPaths, at path: String) -> [(place: String, ignored: Bool)] {
        func child(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
        var found: [(String, Bool)] = []
        // Members step by name, elements by index, as canonical JSON and firstDifference step.
        func visit(_ name: String, _ inner: CassetteJSON, _ below: IgnoredPaths?) {
            found.append((child(name), below == nil))
            if let below { found += walked(inner, below, at: child(name)) }
        }
        switch value {
        case .object(let members): for member in members { visit(member.key, member.value, ignored.below(member.key)) }
        case .array(let elements): for (index, element) in elements.enumerated() { visit("\(index)", element, ignored.below(index: index)) }
        default: break
        }
        return found
    }

    /// The differential suite's documents, and elements right below a member named "" of the root (their places are
    /// written as at the root: `0`, not `.0`).
    static let documents = JSONPathDifferentialTests.documents + [#"{"":[1,{"":[2]}],"0":3}"#]

    @Test(arguments: documents)
    func theWalkIgnoresWhatTheDottedMatcherDoes(document: String) throws {
        let value = try CassetteJSON.parse(document)
        let sets: [Set<JSONPath>] = Self.patterns.map { [$0] } + [Set(Self.patterns), ["user.token", "items.*.token"], ["*", "a.b"], ["0"], ["1"]]
        for paths in sets {
            for (place, ignored) in Self.walked(value, IgnoredPaths(paths), at: "") {
                #expect(ignored == JSONPathPattern.matches(place, any: paths), "\(place) under \(paths.map(\.expression))")
            }
        }
    }

    @Test func aWalkStartingBelowTheRootCountsThePlaceItStartsAt() throws {
        let value = try CassetteJSON.parse(#"{"token":"t","args":{"token":"u","n":1},"list":[{"token":1}]}"#)
        let paths: Set<JSONPath> = ["params.token", "params.list.*.token", "params.args.n"]
        for (place, ignored) in Self.walked(value, IgnoredPaths(paths, at: "params"), at: "params") {
            #expect(ignored == JSONPathPattern.matches(place, any: paths), "\(place)")
        }
        #expect(value.canonical(ignoring: paths, path: "params") == #"{"args":{"token":"u"},"list":[{}]}"#)
    }

    @Test func nothingIgnoredBelowAPlaceNoPathReaches() {
        let root = IgnoredPaths(["items.*.ts", "meta"])
        #expect(root.below("name")?.isEmpty == true)
        #expect(root.below("meta") == nil)
        #expect(root.below("items")?.below(index: 3)?.below("ts") == nil)
        #expect(root.below("items")?.below(index: 3)?.below("id")?.isEmpty == true)
    }

    @Test func canonicalTextAndTheComparisonAgreeWithIgnoredPaths() throws {
        let a = try CassetteJSON.parse(#"{"b":{"ts":1,"x":[1,2,{"at":3}]},"items":[{"at":"x","v":1.0}],"e":"\n\"q\"\\"}"#)
        let b = try CassetteJSON.parse(#"{"items":[{"v":1,"at":"y"}],"e":"\n\"q\"\\","b":{"x":[1,2,{"at":4}],"ts":2}}"#)
        let paths: Set<JSONPath> = ["b.ts", "items.*.at", "b.x.2.at"]
        #expect(a.canonical(ignoring: paths) == b.canonical(ignoring: paths))
        #expect(a.semanticallyEquals(b, ignoring: paths))
        #expect(a.canonical(ignoring: paths) == #"{"b":{"x":[1,2,{}]},"e":"\u000a\"q\"\\","items":[{"v":1}]}"#)
        #expect(a.firstDifference(from: b, ignoring: ["b.ts", "items.*.at"]) == "b.x.2.at")
    }

    @Test func anArrayLongerOnOneSideDiffersPastAnIgnoredExtraElement() throws {
        let a = try CassetteJSON.parse("[1,2]"), b = try CassetteJSON.parse("[1,2,3,4]")
        #expect(a.firstDifference(from: b, ignoring: ["2"]) == "3")
        #expect(a.firstDifference(from: b, ignoring: ["2", "3"]) == nil)
    }
}
