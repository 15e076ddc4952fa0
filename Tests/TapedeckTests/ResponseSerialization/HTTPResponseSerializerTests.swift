import Foundation
import Testing
import Tapedeck

@Suite struct HTTPResponseSerializerTests {
    @Test func returnsTheBodyUnchangedForAnyContentType() throws {
        let body = Data([0, 1, 2, 255])
        let head = ResponseFixture.head(200, "application/octet-stream")
        #expect(try HTTPResponseSerializer().serialize(head: head, data: body) == body)
        #expect(try HTTPResponseSerializer().serialize(head: ResponseFixture.head(201), data: nil) == nil)
    }

    @Test func returnsTheBodyWhenThereIsNoResponse() throws {
        let body = ResponseFixture.utf8("partial")
        #expect(try HTTPResponseSerializer().serialize(head: nil, data: body) == body)
    }

    @Test func refusesAnUnacceptableContentTypeWhenConfigured() throws {
        var serializer = HTTPResponseSerializer()
        serializer.acceptableContentTypes = ["image/png"]
        let head = ResponseFixture.head(200, "text/html")
        #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(head: head, data: ResponseFixture.utf8("<html>"))
        }
        #expect(try serializer.serialize(head: ResponseFixture.head(204), data: Data()) == Data())
    }

    @Test func serializesAWholeResponse() throws {
        let body = ResponseFixture.utf8("text")
        let response = HTTPResponse(head: ResponseFixture.head(200, "text/plain"), body: .data(body))
        #expect(try HTTPResponseSerializer().serialize(response) == body)
        let streamed = HTTPResponse(head: ResponseFixture.head(200), body: .streamed(byteCount: 10))
        #expect(try HTTPResponseSerializer().serialize(streamed) == nil)
    }

    @Test func worksThroughAnExistential() throws {
        let serializer: any ResponseSerializer = HTTPResponseSerializer()
        let value = try serializer.serialize(head: ResponseFixture.head(200), data: ResponseFixture.utf8("x"))
        #expect(value as? Data == ResponseFixture.utf8("x"))
        let typed: any ResponseSerializer<Data?> = HTTPResponseSerializer()
        #expect(try typed.serialize(head: nil, data: nil) == nil)
    }
}
