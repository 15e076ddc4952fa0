import Foundation
import Testing
import Tapedeck

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
}
