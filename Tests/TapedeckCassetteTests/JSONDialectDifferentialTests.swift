import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCore

/// The one JSON reader in its two dialects, over the same tricky inputs: the strict one (`CassetteJSON`) and the
/// `JSONSerialization`-compatible one (`JSONValue`), each against what it accepted before the two parsers were
/// merged, and the compatible one against Foundation itself. Where both accept, they read the same value.
@Suite struct JSONDialectDifferentialTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        /// Whether the strict dialect (RFC 8259, any top-level value) accepts it.
        let strict: Bool
        /// Whether `JSONSerialization` (with fragments allowed) accepts it.
        let foundation: Bool
        var testDescription: String { String(decoding: bytes.prefix(40), as: UTF8.self).debugDescription }

        init(_ text: String, strict: Bool, foundation: Bool) {
            self.init(Array(text.utf8), strict: strict, foundation: foundation)
        }

        init(_ bytes: [UInt8], strict: Bool, foundation: Bool) {
            self.bytes = bytes
            self.strict = strict
            self.foundation = foundation
        }
    }

    static func nested(_ depth: Int, _ inner: String = "") -> String {
        String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
    }

    static let cases: [Case] = [
        // Accepted by both.
        Case(#"{}"#, strict: true, foundation: true),
        Case(" \t\r\n[ ]\n", strict: true, foundation: true),
        Case(#"{"a":{"b":[true,false,null]},"a":2}"#, strict: true, foundation: true),
        Case(#"[0,-0,1e2,1E+2,1e-2,-0.5,12345678901234567890,9007199254740993,1.000000000000000000001]"#, strict: true, foundation: true),
        Case(#"["\"\\\/\b\f\n\r\t","\u00e9\uD83D\uDE00\u0000","é😀"]"#, strict: true, foundation: true),
        Case(#"[" ",""]"#, strict: true, foundation: true),
        Case("\"s\"", strict: true, foundation: true),
        Case(" 42 ", strict: true, foundation: true),
        Case("null", strict: true, foundation: true),
        Case(nested(511, "1"), strict: true, foundation: true),
        Case(nested(512), strict: true, foundation: true),
        // Accepted only by the compatible dialect.
        Case("\u{FEFF}[1]", strict: false, foundation: true),
        Case("\u{FEFF}1", strict: false, foundation: true),
        Case("[1,]", strict: false, foundation: true),
        Case("[1 ,\n]", strict: false, foundation: true),
        Case(#"{"a":1,}"#, strict: false, foundation: true),
        Case(#"{"a":1 , }"#, strict: false, foundation: true),
        Case(nested(512, "1"), strict: false, foundation: true),
        // Refused by both.
        Case("", strict: false, foundation: false),
        Case(" ", strict: false, foundation: false),
        Case("\u{FEFF}\u{FEFF}[1]", strict: false, foundation: false),
        Case("[,]", strict: false, foundation: false),
        Case("[1,,]", strict: false, foundation: false),
        Case("{,}", strict: false, foundation: false),
        Case("[1", strict: false, foundation: false),
        Case(#"{"a"}"#, strict: false, foundation: false),
        Case(#"{"a":}"#, strict: false, foundation: false),
        Case("{a:1}", strict: false, foundation: false),
        Case("[01]", strict: false, foundation: false),
        Case("[-01]", strict: false, foundation: false),
        Case("[1.]", strict: false, foundation: false),
        Case("[.5]", strict: false, foundation: false),
        Case("[1e]", strict: false, foundation: false),
        Case("[1e+]", strict: false, foundation: false),
        Case("[-]", strict: false, foundation: false),
        Case("[+1]", strict: false, foundation: false),
        Case("[tru]", strict: false, foundation: false),
        Case("[True]", strict: false, foundation: false),
        Case("[nul", strict: false, foundation: false),
        Case("[NaN]", strict: false, foundation: false),
        Case(#"["a]"#, strict: false, foundation: false),
        Case(#"["\x"]"#, strict: false, foundation: false),
        Case(#"["\u12"]"#, strict: false, foundation: false),
        Case(#"["\u12G4"]"#, strict: false, foundation: false),
        Case(#"["\ud83d"]"#, strict: false, foundation: false),
        Case(#"["\ud83d\u0041"]"#, strict: false, foundation: false),
        Case(#"["\ude00"]"#, strict: false, foundation: false),
        Case(#"["\"#, strict: false, foundation: false),
        Case("[\"a\nb\"]", strict: false, foundation: false),
        Case("[\"a\tb\"]", strict: false, foundation: false),
        Case("[1] [2]", strict: false, foundation: false),
        Case("[1]x", strict: false, foundation: false),
        Case("[1]\u{0}", strict: false, foundation: false),
        Case("\u{0C}[1]", strict: false, foundation: false),
        Case("'a'", strict: false, foundation: false),
        Case(nested(513), strict: false, foundation: false),
        Case([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], strict: false, foundation: false),
        Case([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], strict: false, foundation: false),
        Case([0x5B, 0x22, 0x5C, 0x6E, 0xFF, 0x22, 0x5D], strict: false, foundation: false),
    ]

    @Test(arguments: cases)
    func bothDialectsAcceptWhatTheyDidAndAgree(_ input: Case) throws {
        let data = Data(input.bytes)
        let strict = try? CassetteJSON.parse(data)
        let compatible = try? JSONValueParser.parse(data, allowingFragments: true)
        let foundation = (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)).flatMap(JSONValue.init(foundationObject:))
        #expect((strict != nil) == input.strict, "strict dialect")
        #expect((compatible != nil) == input.foundation, "compatible dialect")
        #expect((foundation != nil) == input.foundation, "JSONSerialization")
        if let compatible, let foundation { #expect(compatible == foundation) }
        if let strict, let compatible { #expect(Self.jsonValue(strict) == compatible) }
        // Without fragments, the compatible dialect refuses a top-level scalar exactly as Foundation does.
        let noFragments = try? JSONValueParser.parse(data)
        let foundationNoFragments = try? JSONSerialization.jsonObject(with: data)
        #expect((noFragments != nil) == (foundationNoFragments != nil), "without fragments")
    }

    @Test func bothDialectsPlaceAnErrorAlike() throws {
        let data = Data("{\n  \"a\": 1,\n  \"b\": ?\n}".utf8)
        let strict = try #require(throws: JSONSyntaxError.self) { try CassetteJSON.parse(data) }
        #expect(strict.description == "line 3, column 8: unexpected character '?': a value was expected")
        let compatible = try #require(throws: CocoaError.self) { try JSONValueParser.parse(data) }
        #expect(compatible.userInfo[NSDebugDescriptionErrorKey] as? String
            == "Invalid JSON at line 3, column 8 (byte 19): unexpected character '?': a value was expected.")
    }

    @Test func aBodyIsJSONOnlyUpToTheBodyDepth() {
        let depth = CassetteJSON.maximumBodyDepth
        #expect(CassetteJSON.parseBody(Data(Self.nested(depth).utf8)) != nil)
        #expect(CassetteJSON.parseBody(Data(Self.nested(depth - 1, "1").utf8)) != nil)
        #expect(CassetteJSON.parseBody(Data(Self.nested(depth, "1").utf8)) == nil)
        #expect(CassetteJSON.parseBody(Data(Self.nested(depth + 1).utf8)) == nil)
    }

    /// The strict tree as a ``JSONValue``: numbers by value, a repeated member name keeping its last value.
    static func jsonValue(_ value: CassetteJSON) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let spelling): return .number(Double(spelling) ?? .nan)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(jsonValue))
        case .object(let members):
            var object: [String: JSONValue] = [:]
            for member in members { object[member.key] = jsonValue(member.value) }
            return .object(object)
        }
    }
}
