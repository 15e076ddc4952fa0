import Foundation
import Testing
import TapedeckCore

@Suite struct JSONValueTests {
    @Test func foundationObjectsRoundTrip() throws {
        let text = #"{"a":[1,2.5,true,null,"s"],"b":{"c":false}}"#
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let value = try #require(JSONValue(foundationObject: object))
        #expect(value == ["a": [1, 2.5, true, nil, "s"], "b": ["c": false]])
        let back = try JSONSerialization.data(withJSONObject: value.foundationObject, options: .sortedKeys)
        #expect(String(decoding: back, as: UTF8.self) == #"{"a":[1,2.5,true,null,"s"],"b":{"c":false}}"#)
    }

    @Test func codableRoundTripKeepsIntegersIntegral() throws {
        let value: JSONValue = ["n": 3, "x": 0.5, "t": true]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(value)
        #expect(String(decoding: data, as: UTF8.self) == #"{"n":3,"t":true,"x":0.5}"#)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    @Test func accessorsReadNestedValues() {
        let value: JSONValue = ["list": ["a", "b"], "count": 2]
        #expect(value["list"]?[1]?.stringValue == "b")
        #expect(value["count"]?.intValue == 2)
        #expect(value["missing"] == nil)
        #expect(value["list"]?[5] == nil)
    }

    @Test func pathsReachMembersAndElements() {
        let value: JSONValue = ["users": [["name": "Ada"], ["name": "Grace"]]]
        #expect(value.value(at: ["users", "1", "name"]) == "Grace")
        #expect(value.value(at: []) == value)
        #expect(value.value(at: ["users", "2"]) == nil)
        #expect(value.value(at: ["users", "x"]) == nil)
        #expect(value.value(at: ["users", "0", "name", "more"]) == nil)
    }

    @Test func textParsesAndEncodesCanonically() throws {
        let value = try #require(JSONValue(parsing: Data(#" {"b": [1, 2.5, "a/b"], "a": null} "#.utf8)))
        #expect(value == ["a": nil, "b": [1, 2.5, "a/b"]])
        #expect(String(decoding: value.encoded, as: UTF8.self) == #"{"a":null,"b":[1,2.5,"a/b"]}"#)
        #expect(JSONValue(parsing: Data("not json".utf8)) == nil)
        #expect(JSONValue(parsing: Data("7".utf8)) == 7)
    }
}
