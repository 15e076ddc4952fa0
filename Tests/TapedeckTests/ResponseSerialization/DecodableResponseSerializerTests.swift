import Foundation
import Testing
import Tapedeck

@Suite struct DecodableResponseSerializerTests {
    private struct User: Decodable, Sendable, Equatable {
        var id: Int
        var displayName: String
    }

    private let head = ResponseFixture.head(200, "application/json; charset=utf-8")

    @Test func decodesWithTheInjectedDecoder() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let serializer = DecodableResponseSerializer(User.self, decoder: decoder)
        let user = try serializer.serialize(head: head, data: ResponseFixture.utf8(#"{"id":7,"display_name":"Ada"}"#))
        #expect(user == User(id: 7, displayName: "Ada"))
    }

    @Test func aMismatchThrows1016WithTheDecodingErrorUnderneath() throws {
        let error = try #require(ResponseFixture.serializationError {
            try DecodableResponseSerializer(User.self)
                .serialize(head: head, data: ResponseFixture.utf8(#"{"id":"seven"}"#))
        })
        guard case .decodingFailed(.decodable(let typeName), _, _, let underlying) = error else {
            Issue.record("expected decodingFailed(.decodable), got \(error)")
            return
        }
        #expect(typeName == "User")
        #expect(underlying is DecodingError)
        #expect((error as NSError).code == NSURLErrorCannotDecodeContentData)
        #expect(error.localizedDescription == "The response could not be decoded as User.")
    }

    @Test func invalidJSONThrows1016() throws {
        let error = try #require(ResponseFixture.serializationError {
            try DecodableResponseSerializer(User.self).serialize(head: head, data: ResponseFixture.utf8("{invalid"))
        })
        #expect((error as NSError).code == NSURLErrorCannotDecodeContentData)
    }

    @Test(arguments: [204, 205, 200])
    func anEmptyBodyThrowsAClearErrorForAnOrdinaryType(statusCode: Int) throws {
        for body in [nil, Data(), ResponseFixture.utf8(" ")] {
            let error = try #require(ResponseFixture.serializationError {
                try DecodableResponseSerializer(User.self).serialize(
                    head: ResponseFixture.head(statusCode, "application/json"), data: body
                )
            })
            guard case .emptyBody(let expected, let failing) = error else {
                Issue.record("expected emptyBody, got \(error)")
                return
            }
            #expect(expected == "User")
            #expect(failing?.statusCode == statusCode)
        }
    }

    @Test func anEmptyBodyGivesEmptyResponse() throws {
        let serializer = DecodableResponseSerializer(EmptyResponse.self)
        #expect(try serializer.serialize(head: ResponseFixture.head(204), data: nil) == EmptyResponse())
        #expect(try serializer.serialize(head: ResponseFixture.head(200), data: Data()) == EmptyResponse())
        let ignored = ResponseFixture.utf8(#"{"ignored":[1,2]}"#)
        #expect(try serializer.serialize(head: head, data: ignored) == EmptyResponse())
    }

    @Test func anEmptyBodyGivesNilForAnOptionalType() throws {
        let serializer = DecodableResponseSerializer(User?.self)
        #expect(try serializer.serialize(head: ResponseFixture.head(205), data: nil) == nil)
        let user = ResponseFixture.utf8(#"{"id":1,"displayName":"B"}"#)
        #expect(try serializer.serialize(head: head, data: user) == User(id: 1, displayName: "B"))
    }

    @Test func emptyResponseEncodesAsAnEmptyObject() throws {
        let data = try JSONEncoder().encode(EmptyResponse())
        #expect(String(decoding: data, as: UTF8.self) == "{}")
    }

    @Test func validationRunsBeforeDecoding() throws {
        let error = try #require(ResponseFixture.serializationError {
            try DecodableResponseSerializer(User.self).serialize(
                head: ResponseFixture.head(422, "application/json"), data: ResponseFixture.utf8(#"{"error":"x"}"#)
            )
        })
        #expect((error as NSError).code == NSURLErrorBadServerResponse)
        let typeError = try #require(ResponseFixture.serializationError {
            try DecodableResponseSerializer(User.self).serialize(
                head: ResponseFixture.head(200, "text/html"), data: ResponseFixture.utf8("<p/>")
            )
        })
        #expect(typeError.isUnacceptableContentType)
    }
}
