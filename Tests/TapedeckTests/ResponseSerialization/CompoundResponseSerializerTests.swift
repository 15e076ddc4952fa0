import Foundation
import Testing
import Tapedeck

@Suite struct CompoundResponseSerializerTests {
    private let json = ResponseFixture.utf8(#"{"key":"value"}"#)
    private let compound = CompoundResponseSerializer([
        XMLParserResponseSerializer(), PropertyListResponseSerializer(), JSONResponseSerializer(),
    ])

    @Test func theFirstSerializerThatAcceptsWins() throws {
        // AFNetworking: testCompoundSerializerProperlySerializesResponse.
        let output = try compound.serialize(head: ResponseFixture.head(200, "application/json"), data: json)
        #expect(output.serializerIndex == 2)
        #expect(output.value(as: JSONValue.self) == ["key": "value"])
        #expect(output.value as? JSONValue == ["key": "value"])
        #expect(output.value(as: ParsedXMLElement.self) == nil)
    }

    @Test func orderDecidesBetweenSerializersThatBothAccept() throws {
        let lenient = CompoundResponseSerializer([StringResponseSerializer(), JSONResponseSerializer()])
        let output = try lenient.serialize(head: ResponseFixture.head(200, "application/json"), data: json)
        #expect(output.serializerIndex == 0)
        #expect(output.value(as: String.self) == #"{"key":"value"}"#)
    }

    @Test func xmlIsPickedWhenTheResponseIsXML() throws {
        let head = ResponseFixture.head(200, "text/xml")
        let output = try compound.serialize(head: head, data: ResponseFixture.utf8("<a/>"))
        #expect(output.serializerIndex == 0)
        #expect(output.value(as: ParsedXMLElement.self)?.name == "a")
    }

    @Test func aNilOutputDoesNotWin() throws {
        // An empty JSON body serializes to nil, so the compound falls back to the raw body.
        let output = try compound.serialize(head: ResponseFixture.head(200, "application/json"), data: Data())
        #expect(output.serializerIndex == nil)
        #expect(output.value(as: Data.self) == Data())
    }

    @Test func fallsBackToTheRawBodyWhenNoSerializerAccepts() throws {
        let html = ResponseFixture.utf8("<html></html>")
        let output = try compound.serialize(head: ResponseFixture.head(200, "text/html"), data: html)
        #expect(output.serializerIndex == nil)
        #expect(output.value(as: Data.self) == html)
    }

    @Test func fallbackUsesTheCompoundsOwnValidation() throws {
        let head = ResponseFixture.head(404, "application/json")
        let error = try #require(ResponseFixture.serializationError { try compound.serialize(head: head, data: json) })
        #expect((error as NSError).code == NSURLErrorBadServerResponse)

        var strict = compound
        strict.acceptableContentTypes = ["application/json"]
        let html = ResponseFixture.head(200, "text/html")
        let typeError = try #require(ResponseFixture.serializationError {
            try strict.serialize(head: html, data: ResponseFixture.utf8("<p/>"))
        })
        #expect(typeError.isUnacceptableContentType)
    }

    @Test func anEmptyCompoundBehavesAsHTTPResponseSerializer() throws {
        let output = try CompoundResponseSerializer([]).serialize(head: nil, data: json)
        #expect(output.serializerIndex == nil)
        #expect(output.value(as: Data.self) == json)
    }

    @Test func nestedCompoundsWork() throws {
        let inner = CompoundResponseSerializer(
            [JSONResponseSerializer()], validation: ResponseValidation(acceptableStatusCodes: [])
        )
        let nested = CompoundResponseSerializer([inner, compound])
        let output = try nested.serialize(head: ResponseFixture.head(200, "application/json"), data: json)
        #expect(output.serializerIndex == 0)
        #expect(output.value(as: CompoundResponseSerializer.Output.self)?.value(as: JSONValue.self) == ["key": "value"])
    }
}
