import Foundation
import Testing
import Tapedeck

@Suite struct JSONResponseSerializerTests {
    private let fooBar = ResponseFixture.utf8(#"{"foo":"bar"}"#)

    @Test(arguments: ["application/json", "text/json", "text/javascript"])
    func acceptsTheStandardJSONTypes(contentType: String) throws {
        let value = try JSONResponseSerializer().serialize(head: ResponseFixture.head(200, contentType), data: fooBar)
        #expect(value == ["foo": "bar"])
    }

    @Test func rejectsANonstandardJSONType() throws {
        let head = ResponseFixture.head(200, "nonstandard/json")
        let error = try #require(ResponseFixture.serializationError {
            try JSONResponseSerializer().serialize(head: head, data: fooBar)
        })
        #expect((error as NSError).code == NSURLErrorCannotDecodeContentData)
        #expect(error.isUnacceptableContentType)
    }

    @Test func parsesObjectsArraysAndScalars() throws {
        let head = ResponseFixture.head(200, "application/json")
        let body = ResponseFixture.utf8(#"{"a":[1,2.5,true,false,null,"s"],"b":{"c":"d"}}"#)
        let value = try JSONResponseSerializer().serialize(head: head, data: body)
        #expect(value == ["a": [1, 2.5, true, false, nil, "s"], "b": ["c": "d"]])
    }

    @Test func returnsNilWithoutErrorForAnEmptyBody() throws {
        let head = ResponseFixture.head(200, "text/json")
        #expect(try JSONResponseSerializer().serialize(head: head, data: Data()) == nil)
        #expect(try JSONResponseSerializer().serialize(head: head, data: nil) == nil)
        #expect(try JSONResponseSerializer().serialize(head: ResponseFixture.head(204), data: nil) == nil)
    }

    @Test func returnsNilWithoutErrorForASingleSpace() throws {
        let head = ResponseFixture.head(200, "text/json")
        #expect(try JSONResponseSerializer().serialize(head: head, data: ResponseFixture.utf8(" ")) == nil)
    }

    @Test(arguments: ["{invalid}", "  ", "[1,", "\"unterminated"])
    func invalidJSONThrows1016WithTheParserErrorUnderneath(text: String) throws {
        let head = ResponseFixture.head(200, "text/json")
        let error = try #require(ResponseFixture.serializationError {
            try JSONResponseSerializer().serialize(head: head, data: ResponseFixture.utf8(text))
        })
        guard case .decodingFailed(.json, _, let data, _) = error else {
            Issue.record("expected decodingFailed(.json), got \(error)")
            return
        }
        #expect(data == ResponseFixture.utf8(text))
        let nsError = error as NSError
        #expect(nsError.domain == ResponseSerializationError.errorDomain)
        #expect(nsError.code == NSURLErrorCannotDecodeContentData)
        #expect(nsError.userInfo[NSUnderlyingErrorKey] is NSError)
    }

    @Test func topLevelFragmentsNeedTheReadingOption() throws {
        let head = ResponseFixture.head(200, "application/json")
        let body = ResponseFixture.utf8(#""just a string""#)
        #expect(throws: ResponseSerializationError.self) {
            try JSONResponseSerializer().serialize(head: head, data: body)
        }
        let lenient = JSONResponseSerializer(readingOptions: .fragmentsAllowed)
        #expect(try lenient.serialize(head: head, data: body) == "just a string")
        #expect(try lenient.serialize(head: head, data: ResponseFixture.utf8("42")) == 42)
    }

    @Test func statusFailureWinsOverParsing() throws {
        let head = ResponseFixture.head(500, "application/json")
        let error = try #require(ResponseFixture.serializationError {
            try JSONResponseSerializer().serialize(head: head, data: ResponseFixture.utf8(#"{"error":"boom"}"#))
        })
        #expect((error as NSError).code == NSURLErrorBadServerResponse)
        let data = (error as NSError).userInfo[ResponseSerializationError.dataKey] as? Data
        #expect(data == ResponseFixture.utf8(#"{"error":"boom"}"#))
    }

    @Test func removesKeysWithNullValuesRecursivelyThroughArraysAndObjects() throws {
        // AFNetworking: testThatJSONRemovesKeysWithNullValues.
        var serializer = JSONResponseSerializer()
        serializer.removesKeysWithNullValues = true
        let body = ResponseFixture.utf8(
            #"{"key":"value","nullkey":null,"array":[{"subnullkey":null,"kept":1}],"arrayWithNulls":[null],"#
                + #""nested":{"deeper":{"gone":null,"list":[null,{"x":null},[null,2]]}}}"#
        )
        let value = try #require(try serializer.serialize(head: ResponseFixture.head(200, "text/json"), data: body))
        #expect(value["key"] == "value")
        #expect(value["nullkey"] == nil)
        #expect(value["array"]?[0]?["subnullkey"] == nil)
        #expect(value["array"]?[0]?["kept"] == 1)
        #expect(value["arrayWithNulls"] == [])
        #expect(value["nested"] == ["deeper": ["list": [[:], [2]]]])
    }

    @Test func keepsNullsByDefault() throws {
        let body = ResponseFixture.utf8(#"{"nullkey":null,"list":[null]}"#)
        let value = try JSONResponseSerializer().serialize(head: ResponseFixture.head(200, "text/json"), data: body)
        #expect(value == ["nullkey": nil, "list": [nil]])
    }

    @Test func nullRemovalLeavesATopLevelNullAlone() {
        #expect(JSONValue.null.removingNullValues() == .null)
        #expect(JSONValue.array([nil, 1]).removingNullValues() == [1])
    }

    @Test func utf16TextStillDecodes() throws {
        let data = try #require(#"{"a":"é"}"#.data(using: .utf16LittleEndian))
        let head = ResponseFixture.head(200, "application/json")
        #expect(try JSONResponseSerializer().serialize(head: head, data: data) == ["a": "é"])
    }
}
