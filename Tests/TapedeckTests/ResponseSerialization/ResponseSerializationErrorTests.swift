import Foundation
import Testing
import Tapedeck

@Suite struct ResponseSerializationErrorTests {
    @Test func domainAndKeysAreStable() {
        #expect(ResponseSerializationError.errorDomain == "com.tapedeck.error.serialization.response")
        #expect(ResponseSerializationError.responseKey == "com.tapedeck.serialization.response.error.response")
        #expect(ResponseSerializationError.dataKey == "com.tapedeck.serialization.response.error.data")
    }

    @Test func statusErrorBridgesWithAFNetworkingsUserInfo() throws {
        let head = ResponseFixture.head(404, "text/html")
        let body = ResponseFixture.utf8("<h1>gone</h1>")
        let error = try #require(ResponseFixture.serializationError {
            try HTTPResponseSerializer().serialize(head: head, data: body)
        })
        let nsError = error as NSError
        #expect(nsError.domain == "com.tapedeck.error.serialization.response")
        #expect(nsError.code == -1011)
        #expect(nsError.localizedDescription == "Request failed: not found (404)")
        #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == "Request failed: not found (404)")
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL == ResponseFixture.url)
        #expect(nsError.userInfo[ResponseSerializationError.responseKey] as? HTTPResponseHead == head)
        #expect(nsError.userInfo[ResponseSerializationError.dataKey] as? Data == body)
        #expect(nsError.userInfo[NSUnderlyingErrorKey] == nil)
        #expect(error.head == head)
        #expect(error.data == body)
        #expect(error.failingURL == ResponseFixture.url)
    }

    @Test func contentTypeErrorBridgesWithAFNetworkingsUserInfo() throws {
        let head = ResponseFixture.head(200, "text/html; charset=utf-8")
        let body = ResponseFixture.utf8("<p>hi</p>")
        let error = try #require(ResponseFixture.serializationError {
            try JSONResponseSerializer().serialize(head: head, data: body)
        })
        let nsError = error as NSError
        #expect(nsError.domain == ResponseSerializationError.errorDomain)
        #expect(nsError.code == NSURLErrorCannotDecodeContentData)
        #expect(nsError.localizedDescription == "Request failed: unacceptable content-type: text/html")
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL == ResponseFixture.url)
        #expect(nsError.userInfo[ResponseSerializationError.responseKey] as? HTTPResponseHead == head)
        #expect(nsError.userInfo[ResponseSerializationError.dataKey] as? Data == body)
    }

    @Test(arguments: [
        (100, "continue"), (302, "found"), (304, "not modified"), (307, "temporarily redirected"),
        (308, "redirected"), (400, "bad request"), (401, "unauthorized"), (403, "forbidden"),
        (418, "client error"), (429, "client error"), (500, "internal server error"), (503, "service unavailable"),
        (599, "server error"),
    ])
    func statusDescriptionsUseApplesWording(statusCode: Int, text: String) throws {
        let error = try #require(ResponseFixture.serializationError {
            try HTTPResponseSerializer().serialize(head: ResponseFixture.head(statusCode), data: nil)
        })
        #expect(error.localizedDescription == "Request failed: \(text) (\(statusCode))")
        #expect((error as NSError).userInfo[ResponseSerializationError.dataKey] == nil)
    }

    @Test func decodingFailureCarriesTheParserErrorUnderneath() throws {
        let head = ResponseFixture.head(200, "application/json")
        let body = ResponseFixture.utf8("{invalid}")
        let error = try #require(ResponseFixture.serializationError {
            try JSONResponseSerializer().serialize(head: head, data: body)
        })
        let nsError = error as NSError
        #expect(nsError.code == NSURLErrorCannotDecodeContentData)
        #expect(nsError.localizedDescription == "The response is not valid JSON.")
        #expect(nsError.userInfo[NSLocalizedFailureReasonErrorKey] is String)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == NSCocoaErrorDomain)
        #expect(nsError.userInfo[ResponseSerializationError.dataKey] as? Data == body)
        #expect(error.underlyingError != nil)
        #expect(!error.isUnacceptableContentType)
    }

    @Test func emptyBodyErrorUsesZeroByteResource() throws {
        let head = ResponseFixture.head(204)
        let error = try #require(ResponseFixture.serializationError {
            try DecodableResponseSerializer([Int].self).serialize(head: head, data: nil)
        })
        let nsError = error as NSError
        #expect(nsError.domain == ResponseSerializationError.errorDomain)
        #expect(nsError.code == NSURLErrorZeroByteResource)
        #expect(nsError.localizedDescription == "The response has no body to decode as Array<Int> (status 204).")
        #expect(nsError.userInfo[ResponseSerializationError.responseKey] as? HTTPResponseHead == head)
    }

    @Test func errorWithoutAResponseHasNoURLOrResponseInUserInfo() throws {
        let error = ResponseSerializationError.decodingFailed(
            .json, head: nil, data: ResponseFixture.utf8("x"), underlying: CocoaError(.propertyListReadCorrupt)
        )
        let nsError = error as NSError
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] == nil)
        #expect(nsError.userInfo[ResponseSerializationError.responseKey] == nil)
        #expect(nsError.userInfo[ResponseSerializationError.dataKey] as? Data == ResponseFixture.utf8("x"))
    }

    @Test func descriptionIncludesTheFailureReason() {
        let error = ResponseSerializationError.decodingFailed(
            .xml, head: nil, data: nil, underlying: CocoaError(.propertyListReadCorrupt)
        )
        #expect(String(describing: error).hasPrefix("The response is not valid XML. ("))
        #expect(error.failureReason != nil)
    }
}
