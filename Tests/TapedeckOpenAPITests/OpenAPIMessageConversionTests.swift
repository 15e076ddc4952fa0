import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import TapedeckCore
@testable import TapedeckOpenAPI

/// OpenAPI's messages ⇄ Tapedeck's, without I/O.
@Suite struct OpenAPIMessageConversionTests {
    let base = URL(string: "http://127.0.0.1:8080/api")!

    @Test func requestKeepsMethodURLAndHeaderFieldsInOrderWithRepeats() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: HTTPField.Name("X-Tag")!, value: "one"))
        fields.append(HTTPField(name: HTTPField.Name("x-tag")!, value: "two"))
        let request = HTTPTypes.HTTPRequest(method: .patch, scheme: nil, authority: nil, path: "/items/7?full=1", headerFields: fields)
        let configuration = TapedeckClientTransport.Configuration(timeoutInterval: 5, totalTimeout: 30, redirectPolicy: .none)

        let converted = try OpenAPIMessageConversion.tapedeckRequest(from: request, body: nil, baseURL: base, configuration: configuration)

        #expect(converted.method == .patch)
        #expect(converted.url.absoluteString == "http://127.0.0.1:8080/api/items/7?full=1")
        #expect(converted.headers.fields.map(\.name) == ["Accept", "X-Tag", "x-tag"])
        #expect(converted.headers.values(for: "X-Tag") == ["one", "two"])
        #expect(converted.body.isEmpty)
        #expect(converted.timeoutInterval == 5)
        #expect(converted.totalTimeout == 30)
        #expect(converted.redirectPolicy == .none)
        #expect(converted.responseBody == .stream)
    }

    @Test func aBodyOfKnownLengthStreamsWithThatLength() async throws {
        let request = HTTPTypes.HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/post")
        let converted = try OpenAPIMessageConversion.tapedeckRequest(
            from: request, body: HTTPBody("hello"), baseURL: base, configuration: .init()
        )
        guard case .stream(let stream) = converted.body else {
            Issue.record("expected a stream body, got \(converted.body)")
            return
        }
        #expect(stream.length == 5)
        var received = Data()
        for try await chunk in stream.makeChunks() { received.append(chunk) }
        #expect(received == Data("hello".utf8))
    }

    @Test func aBodyOfUnknownLengthStreamsWithoutOne() throws {
        let (chunks, continuation) = AsyncStream<HTTPBody.ByteChunk>.makeStream()
        continuation.finish()
        let request = HTTPTypes.HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/upload")
        let converted = try OpenAPIMessageConversion.tapedeckRequest(
            from: request, body: HTTPBody(chunks, length: .unknown), baseURL: base, configuration: .init()
        )
        guard case .stream(let stream) = converted.body else {
            Issue.record("expected a stream body, got \(converted.body)")
            return
        }
        #expect(stream.length == nil)
    }

    @Test func responseHeadBecomesAnOpenAPIResponseWithRepeatedFields() throws {
        let head = HTTPResponseHead(
            statusCode: 201, reasonPhrase: "Created",
            headers: HTTPHeaders([("Content-Type", "application/json"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2")]),
            url: base
        )
        let response = try OpenAPIMessageConversion.openAPIResponse(from: head)
        #expect(response.status.code == 201)
        #expect(response.status.reasonPhrase == "Created")
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(response.headerFields[values: .setCookie] == ["a=1", "b=2"])
        #expect(response.headerFields.map(\.name.rawName) == ["Content-Type", "Set-Cookie", "set-cookie"])
    }

    @Test func aHeaderNameThatIsNoTokenIsAClearError() throws {
        let head = HTTPResponseHead(statusCode: 200, headers: HTTPHeaders([("Bad Name", "x")]), url: base)
        #expect(throws: OpenAPITransportError.invalidResponseHeaderName("Bad Name", url: base)) {
            try OpenAPIMessageConversion.openAPIResponse(from: head)
        }
        #expect(OpenAPITransportError.invalidResponseHeaderName("Bad Name", url: base).description
            == "the response from http://127.0.0.1:8080/api has a header field named \"Bad Name\", which is not a valid HTTP field name")
    }

    @Test func aStatusOutsideThreeDigitsIsAClearError() throws {
        let head = HTTPResponseHead(statusCode: 1000, url: base)
        #expect(throws: OpenAPITransportError.invalidStatusCode(1000, url: base)) {
            try OpenAPIMessageConversion.openAPIResponse(from: head)
        }
    }

    @Test(arguments: [
        (HTTPTypes.HTTPRequest.Method.head, 200, true), (.get, 204, true), (.get, 304, true), (.get, 101, true),
        (.get, 200, false), (.post, 201, false), (.get, 404, false),
    ])
    func bodilessAnswers(method: HTTPTypes.HTTPRequest.Method, status: Int, bodiless: Bool) {
        #expect(OpenAPIMessageConversion.hasNoBody(method: method, statusCode: status) == bodiless)
    }

    @Test func bodyLengthIsTheContentLengthUnlessEncoded() {
        let plain = HTTPResponseHead(statusCode: 200, headers: ["Content-Length": "42"], url: base)
        let identity = HTTPResponseHead(statusCode: 200, headers: ["Content-Length": "42", "Content-Encoding": "identity"], url: base)
        let gzipped = HTTPResponseHead(statusCode: 200, headers: ["Content-Length": "42", "Content-Encoding": "gzip"], url: base)
        let chunked = HTTPResponseHead(statusCode: 200, headers: ["Transfer-Encoding": "chunked"], url: base)
        #expect(OpenAPIMessageConversion.responseBodyLength(of: plain) == .known(42))
        #expect(OpenAPIMessageConversion.responseBodyLength(of: identity) == .known(42))
        #expect(OpenAPIMessageConversion.responseBodyLength(of: gzipped) == .unknown)
        #expect(OpenAPIMessageConversion.responseBodyLength(of: chunked) == .unknown)
    }
}
