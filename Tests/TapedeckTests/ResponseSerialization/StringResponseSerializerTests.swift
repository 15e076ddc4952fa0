import Foundation
import Testing
import Tapedeck

@Suite struct StringResponseSerializerTests {
    @Test func defaultsToUTF8() throws {
        let text = "héllo → wörld"
        let head = ResponseFixture.head(200, "text/plain")
        let value = try StringResponseSerializer().serialize(head: head, data: Data(text.utf8))
        #expect(value == text)
    }

    @Test(arguments: [
        "text/plain; charset=ISO-8859-1", "text/plain;charset=iso-8859-1", #"text/plain; charset="latin1""#,
        "text/plain; format=flowed; Charset=ISO_8859-1",
    ])
    func readsISO88591FromTheContentType(contentType: String) throws {
        let head = ResponseFixture.head(200, contentType)
        let value = try StringResponseSerializer().serialize(head: head, data: Data([0x63, 0x61, 0x66, 0xE9]))
        #expect(value == "café")
        #expect(StringResponseSerializer().encoding(for: head) == .isoLatin1)
    }

    @Test func readsUTF16WithAByteOrderMark() throws {
        let text = "Grüße, 世界"
        let data = try #require(text.data(using: .utf16))
        let head = ResponseFixture.head(200, "text/plain; charset=utf-16")
        #expect(try StringResponseSerializer().serialize(head: head, data: data) == text)
    }

    @Test func readsUTF16LittleAndBigEndian() throws {
        let text = "Grüße"
        let little = try #require(text.data(using: .utf16LittleEndian))
        let big = try #require(text.data(using: .utf16BigEndian))
        let serializer = StringResponseSerializer()
        let littleHead = ResponseFixture.head(200, "text/plain; charset=UTF-16LE")
        let bigHead = ResponseFixture.head(200, "text/plain; charset=UTF-16BE")
        #expect(try serializer.serialize(head: littleHead, data: little) == text)
        #expect(try serializer.serialize(head: bigHead, data: big) == text)
    }

    @Test func anUnknownCharsetFallsBackToTheDefaultEncoding() throws {
        let head = ResponseFixture.head(200, "text/plain; charset=x-klingon")
        #expect(StringResponseSerializer().encoding(for: head) == .utf8)
        #expect(StringResponseSerializer(defaultEncoding: .isoLatin1).encoding(for: head) == .isoLatin1)
        #expect(StringResponseSerializer().encoding(for: nil) == .utf8)
    }

    @Test func anExplicitEncodingOverridesTheCharset() throws {
        let head = ResponseFixture.head(200, "text/plain; charset=utf-8")
        let serializer = StringResponseSerializer(encoding: .isoLatin1)
        #expect(try serializer.serialize(head: head, data: Data([0xE9])) == "é")
    }

    @Test func bytesInvalidInTheCharsetThrow1016() throws {
        let head = ResponseFixture.head(200, "text/plain; charset=utf-8")
        let error = try #require(ResponseFixture.serializationError {
            try StringResponseSerializer().serialize(head: head, data: Data([0x66, 0xFF, 0xFE, 0x6F]))
        })
        guard case .decodingFailed(.string(.utf8), _, _, _) = error else {
            Issue.record("expected decodingFailed(.string(.utf8)), got \(error)")
            return
        }
        let nsError = error as NSError
        #expect(nsError.code == NSURLErrorCannotDecodeContentData)
        #expect(nsError.localizedDescription == "Data failed decoding as a UTF-8 string")
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == NSCocoaErrorDomain)
        #expect(underlying.code == CocoaError.fileReadInapplicableStringEncoding.rawValue)
    }

    @Test func anEmptyBodyIsAnEmptyString() throws {
        #expect(try StringResponseSerializer().serialize(head: ResponseFixture.head(204), data: nil) == "")
        #expect(try StringResponseSerializer().serialize(head: ResponseFixture.head(200), data: Data()) == "")
    }

    @Test func validatesFirst() throws {
        var serializer = StringResponseSerializer()
        serializer.acceptableContentTypes = ["text/plain"]
        #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(head: ResponseFixture.head(200, "text/html"), data: ResponseFixture.utf8("x"))
        }
        #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(head: ResponseFixture.head(500, "text/plain"), data: ResponseFixture.utf8("x"))
        }
    }
}
