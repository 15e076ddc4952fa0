import Foundation
import Testing
import Tapedeck

@Suite struct ResponseValidationTests {
    private let body = ResponseFixture.utf8("text")

    @Test func acceptsEvery2xxStatusAndRejectsEveryOtherWith1011() throws {
        let validation = ResponseValidation()
        for statusCode in 100...599 {
            let head = ResponseFixture.head(statusCode, "text/html")
            let error = ResponseFixture.serializationError { try validation.validate(head: head, data: body) }
            if (200...299).contains(statusCode) {
                #expect(error == nil, "status \(statusCode) should pass")
            } else {
                let nsError = try #require(error.map { $0 as NSError }, "status \(statusCode) should fail")
                #expect(nsError.domain == ResponseSerializationError.errorDomain)
                #expect(nsError.code == NSURLErrorBadServerResponse)
            }
        }
    }

    @Test func defaultStatusCodesAreExactly200Through299() {
        #expect(ResponseValidation().acceptableStatusCodes == Set(200...299))
        #expect(ResponseValidation().acceptableContentTypes == nil)
    }

    @Test func nilStatusCodesAcceptEveryStatus() throws {
        let validation = ResponseValidation(acceptableStatusCodes: nil)
        try validation.validate(head: ResponseFixture.head(503), data: body)
        #expect(validation.accepts(statusCode: 99))
    }

    @Test func customStatusCodesReplaceTheDefault() throws {
        var validation = ResponseValidation()
        validation.acceptableStatusCodes = [304]
        try validation.validate(head: ResponseFixture.head(304), data: nil)
        #expect(throws: ResponseSerializationError.self) {
            try validation.validate(head: ResponseFixture.head(200), data: nil)
        }
    }

    @Test(arguments: [
        "application/json", "application/json; charset=utf-8", "Application/JSON", "APPLICATION/JSON;charset=UTF-8",
        "text/json", "text/javascript",
    ])
    func acceptsListedContentTypesWhateverTheirParametersAndCase(contentType: String) throws {
        let validation = ResponseValidation(acceptableContentTypes: JSONResponseSerializer.defaultContentTypes)
        try validation.validate(head: ResponseFixture.head(200, contentType), data: body)
    }

    @Test func listedContentTypesCompareCaseInsensitively() throws {
        let validation = ResponseValidation(acceptableContentTypes: ["Application/Vnd.Tapedeck+JSON"])
        try validation.validate(head: ResponseFixture.head(200, "application/vnd.tapedeck+json"), data: body)
    }

    @Test(arguments: ["nonstandard/json", "text/html", "application/jsonp", ""])
    func rejectsUnlistedContentTypeWith1016(contentType: String) throws {
        let validation = ResponseValidation(acceptableContentTypes: JSONResponseSerializer.defaultContentTypes)
        let head = ResponseFixture.head(200, contentType)
        let error = try #require(ResponseFixture.serializationError { try validation.validate(head: head, data: body) })
        guard case .unacceptableContentType(let mimeType, _, _) = error else {
            Issue.record("expected unacceptableContentType, got \(error)")
            return
        }
        #expect(mimeType == contentType)
        #expect((error as NSError).code == NSURLErrorCannotDecodeContentData)
    }

    @Test func nilContentTypesAcceptAnyType() throws {
        try ResponseValidation().validate(head: ResponseFixture.head(200, "x/y"), data: body)
        try ResponseValidation().validate(head: ResponseFixture.head(200), data: body)
    }

    @Test(arguments: [200, 204, 205])
    func emptyBodyPassesWhateverItsContentType(statusCode: Int) throws {
        let validation = ResponseValidation(acceptableContentTypes: ["text/html"])
        for contentType in [nil, "application/octet-stream"] {
            let head = ResponseFixture.head(statusCode, contentType)
            try validation.validate(head: head, data: nil)
            try validation.validate(head: head, data: Data())
        }
    }

    @Test func a205WithoutContentTypeButWithABodyFails() throws {
        // AFNetworking: testThatAFHTTPResponseSerializationFailsWith205WithNoResponseContentTypeAndResponseData.
        let validation = ResponseValidation(acceptableContentTypes: ["text/html"])
        let head = ResponseFixture.head(205)
        let error = try #require(ResponseFixture.serializationError { try validation.validate(head: head, data: body) })
        guard case .unacceptableContentType(nil, _, _) = error else {
            Issue.record("expected unacceptableContentType(nil), got \(error)")
            return
        }
        #expect(error.localizedDescription == "Request failed: unacceptable content-type: (none)")
    }

    @Test func bothFailingThrowsTheStatusErrorWrappingTheContentTypeError() throws {
        let validation = ResponseValidation(acceptableContentTypes: ["application/json"])
        let head = ResponseFixture.head(404, "text/html")
        let error = try #require(ResponseFixture.serializationError { try validation.validate(head: head, data: body) })
        guard case .unacceptableStatusCode(404, _, _, let inner?) = error,
            case .unacceptableContentType("text/html", _, _) = inner
        else {
            Issue.record("expected a status error wrapping a content-type error, got \(error)")
            return
        }
        #expect(error.isUnacceptableContentType)
        let nsError = error as NSError
        #expect(nsError.code == NSURLErrorBadServerResponse)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == ResponseSerializationError.errorDomain)
        #expect(underlying.code == NSURLErrorCannotDecodeContentData)
        #expect(underlying.localizedDescription == "Request failed: unacceptable content-type: text/html")
    }

    @Test func statusFailureWithAnEmptyBodyWrapsNothing() throws {
        let validation = ResponseValidation(acceptableContentTypes: ["application/json"])
        let head = ResponseFixture.head(500, "text/html")
        let error = try #require(ResponseFixture.serializationError {
            try validation.validate(head: head, data: Data())
        })
        #expect(error.underlyingError == nil)
        #expect((error as NSError).userInfo[NSUnderlyingErrorKey] == nil)
        #expect(!error.isUnacceptableContentType)
    }

    @Test func noResponsePassesValidation() throws {
        let strict = ResponseValidation(acceptableStatusCodes: [], acceptableContentTypes: [])
        try strict.validate(head: nil, data: body)
        try strict.validate(head: nil, data: nil)
    }

    @Test func serializersExposeValidationAsAFNetworkingProperties() throws {
        var serializer = JSONResponseSerializer()
        #expect(serializer.acceptableContentTypes == ["application/json", "text/json", "text/javascript"])
        serializer.acceptableContentTypes?.insert("text/plain")
        serializer.acceptableStatusCodes = [200]
        #expect(serializer.validation.acceptableContentTypes?.contains("text/plain") == true)
        try serializer.validate(head: ResponseFixture.head(200, "text/plain"), data: body)
        #expect(throws: ResponseSerializationError.self) {
            try serializer.validate(head: ResponseFixture.head(201, "text/plain"), data: body)
        }
    }
}
