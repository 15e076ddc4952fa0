import Foundation
import Testing
@testable import TapedeckCassette

@Suite struct CompactJSONScannerTests {
    private func outcome(_ text: String, marking names: Set<String> = []) -> CompactJSONScanner.Outcome {
        CompactJSONScanner.scan(Array(text.utf8)) { names.contains(String(decoding: $0, as: UTF8.self)) }
    }

    @Test func compactObjectsAndArraysOfPlainASCIIAreRecognised() {
        for text in [#"{}"#, #"[]"#, #"{"a":1,"b":[true,false,null],"c":{"d":"x/y z"}}"#, #"[-0,1.5,2e10,-3.25E-2,0.0]"#,
                     #"[{"k":""},[[]],{}]"#, #"{"a":1,"a":2}"#] {
            #expect(outcome(text) == .plainCompact, "\(text)")
        }
    }

    @Test func anyOtherSpellingOrNonJSONIsLeftToTheGeneralPath() {
        for text in ["", "x", "1", #""s""#, "true", "{ }", #"{"a": 1}"#, "[1,\n2]", #"["\n"]"#, #"["\u00e9"]"#, #"["é"]"#,
                     #"["a\/b"]"#, "[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[tru]", "[nul]", "[1,]", #"{"a":1,}"#, #"{"a"}"#,
                     #"{"a":1"#, "[1]]", "[1] ", " [1]", "[\"tab\there\"]", #"{1:2}"#, "[NaN]", "[1]x"] {
            #expect(outcome(text) == .notPlainCompact, "\(text)")
        }
    }

    @Test func deepNestingIsLeftToTheGeneralPath() {
        let depth = CompactJSONScanner.maximumDepth
        #expect(outcome(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)) == .plainCompact)
        #expect(outcome(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)) == .notPlainCompact)
    }

    @Test func markedMemberNamesStopTheScanWhereverTheyAre() {
        #expect(outcome(#"{"user":{"token":"t"}}"#, marking: ["token"]) == .marked)
        #expect(outcome(#"[{"a":1},{"token":null}]"#, marking: ["token"]) == .marked)
        #expect(outcome(#"{"a":"token"}"#, marking: ["token"]) == .plainCompact)
    }

    /// The promise the codec relies on: whatever the scanner accepts, parsing and writing back compactly gives the
    /// same bytes. Checked on generated documents and on every one-byte edit of them.
    @Test func whatIsAcceptedRoundTripsThroughTheParserUnchanged() throws {
        var generator = SeededGenerator(seed: 7)
        var accepted = 0
        for _ in 0..<200 {
            let document = Array(CassetteJSON.serialize(randomContainer(depth: 0, using: &generator)))
            var variants = [document]
            for _ in 0..<20 {
                var edited = document
                let index = Int.random(in: 0..<edited.count, using: &generator)
                edited[index] = Array(#"{}[],:"0123456789.eE+-tfn \ax"#.utf8).randomElement(using: &generator)!
                variants.append(edited)
            }
            for bytes in variants where CompactJSONScanner.isPlainCompact(bytes) {
                accepted += 1
                let value = try #require(CassetteJSON.parseBody(Data(bytes)), "\(String(decoding: bytes, as: UTF8.self))")
                #expect(Array(CassetteJSON.serialize(value)) == bytes)
            }
        }
        #expect(accepted > 200)
    }

    private func anySpelling(_ text: String, marking names: Set<String> = []) -> CompactJSONScanner.Outcome {
        CompactJSONScanner.scan(Array(text.utf8), spelling: .any) { names.contains(String(decoding: $0, as: UTF8.self)) }
    }

    @Test func anySpellingReadsPastWhitespaceAndEscapesInValues() {
        for text in ["{ }", #"{"a": 1}"#, "[1,\n2]", #"["\n"]"#, #"["\u00e9"]"#, #"["a\/b"]"#, " [1] ", "\t{\r\n\"q\" : \"x\\\"y\" }",
                     #"{"query":"query Q {\n  user(id: $id) { name }\n}","variables":{"id":"7"}}"#] {
            #expect(anySpelling(text) == .unmarked, "\(text)")
        }
        #expect(anySpelling(#"{"a":1}"#) == .plainCompact)
        #expect(anySpelling(#"{ "user": { "token": "t" } }"#, marking: ["token"]) == .marked)
        // What the parser would refuse, or a name the predicate cannot see as written, takes the general path.
        #expect(anySpelling(#"["\ud83d\ude00"]"#) == .unmarked, "a surrogate pair, as the parser reads it")
        for text in [#"["\ud83d"]"#, #"["\ude00\ud83d"]"#, #"["é"]"#, #"{"to\u006ben":"t"}"#, #"["\x"]"#, #"["\u12"]"#, "[1,]", "{ \"a\" 1 }",
                     "[1] x", "\u{0C}[1]", "[\"tab\there\"]"] {
            #expect(anySpelling(text, marking: ["token"]) == .notPlainCompact, "\(text)")
        }
    }

    /// The promise redaction relies on: a body the scanner finds unmarked in any spelling parses, and no member name
    /// in it is marked, so the general path (parse, then look for secret members) would change nothing either.
    /// Checked on generated documents laid out with whitespace and escapes, and on every one-byte edit of them.
    @Test func whatAnySpellingFindsUnmarkedParsesWithNoMarkedName() throws {
        var generator = SeededGenerator(seed: 11)
        var unmarked = 0
        let marked: Set<String> = ["k3"]
        for _ in 0..<200 {
            let value = randomContainer(depth: 0, using: &generator)
            var document = Array(CassetteJSON.serialize(value, style: JSONWritingStyle(indent: 2, separator: " : ", expandsEmptyContainers: true)))
            if let quote = document.firstIndex(of: UInt8(ascii: "\"")), Bool.random(using: &generator) {
                document.insert(contentsOf: Array(#"\n\u0041"#.utf8), at: quote + 1)
            }
            var variants = [document]
            for _ in 0..<20 {
                var edited = document
                let index = Int.random(in: 0..<edited.count, using: &generator)
                edited[index] = Array("{}[],:\"0123456789.eE+-tfn \\aux\n".utf8).randomElement(using: &generator)!
                variants.append(edited)
            }
            for bytes in variants where CompactJSONScanner.isUnmarked(bytes, marking: { marked.contains(String(decoding: $0, as: UTF8.self)) }) {
                unmarked += 1
                let parsed = try #require(CassetteJSON.parseBody(Data(bytes)), "\(String(decoding: bytes, as: UTF8.self))")
                #expect(!names(in: parsed).contains { marked.contains($0) }, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(unmarked > 200)
    }

    private func names(in value: CassetteJSON) -> [String] {
        switch value {
        case .object(let members): return members.flatMap { [$0.key] + names(in: $0.value) }
        case .array(let elements): return elements.flatMap(names(in:))
        default: return []
        }
    }

    private func randomContainer(depth: Int, using generator: inout SeededGenerator) -> CassetteJSON {
        let count = Int.random(in: 0...4, using: &generator)
        if Bool.random(using: &generator) {
            return .object((0..<count).map { index in .init("k\(index)", randomValue(depth: depth + 1, using: &generator)) })
        }
        return .array((0..<count).map { _ in randomValue(depth: depth + 1, using: &generator) })
    }

    private func randomValue(depth: Int, using generator: inout SeededGenerator) -> CassetteJSON {
        switch Int.random(in: 0..<7, using: &generator) {
        case 0 where depth < 4, 1 where depth < 4: return randomContainer(depth: depth, using: &generator)
        case 2: return .bool(Bool.random(using: &generator))
        case 3: return .null
        case 4: return .number(["0", "-1", "12.5", "3e7", "-0.25E-3"].randomElement(using: &generator)!)
        default: return .string(["", "a b", "x/y", "sku-1"].randomElement(using: &generator)!)
        }
    }
}

/// A linear congruential generator (Knuth's MMIX constants): generated cases are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
