import Foundation
import Testing
import TapedeckCore

/// The native parser against Foundation's `JSONSerialization`: the same values from the same text, and a refusal
/// wherever Foundation refuses.
@Suite struct JSONValueParserTests {
    static let valid = [
        #"{}"#, #"[]"#, #" { "a" : [ 1 , 2 ] } "#, #"{"a":{"b":{"c":[true,false,null]}}}"#,
        #"[0,-0,1,-1,12345678901234,123456789012345678901,1.5,-2.25e3,1E-2,6.02e+23,9007199254740993]"#,
        #"["plain","é","😀","\"\\\/\b\f\n\r\t","\u00e9","\ud83d\ude00","\u0000"]"#,
        #"{"dup":1,"dup":2}"#, "\u{FEFF}[1]", #"[" "]"#, "[1]\n", "[1,]", #"{"a":1,}"#,
    ]

    static let invalid = [
        "", " ", "{", "[1,", "[,]", "[1,,]", "{,}", "{\"a\"}", "{\"a\":}", "{a:1}", "[01]", "[1.]", "[.5]", "[1e]",
        "[-]", "[+1]", "[tru]", "[nul]", "[\"a]", "[\"\\x\"]", "[\"\\u12\"]", "[\"\\ud83d\"]", "[\"\\ude00\"]",
        "[\"a\nb\"]", "[1] [2]", "[1]x", "{\"a\":1}}", "'a'", "[NaN]", "[Infinity]",
    ]

    @Test(arguments: valid)
    func validTextGivesFoundationsValue(text: String) throws {
        let data = Data(text.utf8)
        let expected = try #require(JSONValue(foundationObject: try JSONSerialization.jsonObject(with: data)))
        #expect(try JSONValueParser.parse(data) == expected)
    }

    @Test(arguments: invalid)
    func invalidTextIsRefusedLikeFoundation(text: String) {
        let data = Data(text.utf8)
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: data) }
        #expect(throws: CocoaError.self) { try JSONValueParser.parse(data) }
    }

    @Test func invalidUTF8InAStringIsRefused() {
        #expect(throws: CocoaError.self) { try JSONValueParser.parse(Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])) }
    }

    @Test func errorsSayWhatAndWhere() throws {
        let error = try #require(throws: CocoaError.self) { try JSONValueParser.parse(Data(#"{"a":1,"b":?}"#.utf8)) }
        #expect(error.code == .propertyListReadCorrupt)
        let message = try #require(error.userInfo[NSDebugDescriptionErrorKey] as? String)
        #expect(message == "Invalid JSON at line 1, column 12 (byte 11): unexpected character '?': a value was expected.")
    }

    @Test func fragmentsNeedPermission() throws {
        #expect(throws: CocoaError.self) { try JSONValueParser.parse(Data("42".utf8)) }
        #expect(try JSONValueParser.parse(Data("42".utf8), allowingFragments: true) == 42)
        #expect(try JSONValueParser.parse(Data(#" "s" "#.utf8), allowingFragments: true) == "s")
    }

    @Test func utf16IsRecognized() throws {
        #expect(JSONValueParser.isUTF16or32(try #require(#"{"a":1}"#.data(using: .utf16LittleEndian))))
        #expect(!JSONValueParser.isUTF16or32(Data(#"{"a":1}"#.utf8)))
        #expect(JSONValue(parsing: try #require(#"{"a":"é"}"#.data(using: .utf16BigEndian))) == ["a": "é"])
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: CocoaError.self) { try JSONValueParser.parse(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        _ = try JSONValueParser.parse(Data(fine.utf8))
    }
}
