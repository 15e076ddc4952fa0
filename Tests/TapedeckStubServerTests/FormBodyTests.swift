import Foundation
import Testing
import TapedeckCore
@testable import TapedeckStubServer

@Suite struct FormBodyTests {
    @Test func urlEncodedPairsDecodePlusAndEscapes() {
        let pairs = FormBody.urlEncodedPairs(Data("a=1&b=x+y&c&d=%2F%26&a=2".utf8))
        #expect(pairs.map(\.name) == ["a", "b", "c", "d", "a"])
        #expect(pairs.map(\.value) == ["1", "x y", "", "/&", "2"])
    }

    @Test func multipartPartsAreSplitWithTheirHeaders() throws {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nvalue\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nline1\r\nline2\r\n"
            + "--XyZ--\r\n"
        let parts = try FormBody.multipartParts(Data(body.utf8), contentType: "multipart/form-data; boundary=XyZ")
        #expect(parts.count == 2)
        #expect(parts[0].name == "field")
        #expect(parts[0].body == Data("value".utf8))
        #expect(parts[1].fileName == "a.txt")
        #expect(parts[1].contentType == "text/plain")
        #expect(parts[1].body == Data("line1\r\nline2".utf8))
    }

    @Test func quotedBoundariesAreUnquoted() {
        #expect(FormBody.boundary(inContentType: #"multipart/form-data; charset=utf-8; boundary="a b""#) == "a b")
        #expect(FormBody.boundary(inContentType: "multipart/form-data") == nil)
    }

    @Test func malformedBodiesSayWhatIsWrong() {
        #expect(throws: FormBody.ParseError.missingBoundary(contentType: "multipart/form-data")) {
            try FormBody.multipartParts(Data(), contentType: "multipart/form-data")
        }
        #expect {
            try FormBody.multipartParts(Data("--b\r\nno end".utf8), contentType: "multipart/form-data; boundary=b")
        } throws: { error in
            "\(error)".contains("part 1 is not closed")
        }
    }
}

@Suite struct GzipStoredEncoderTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func largeInputsSpanSeveralStoredBlocks() {
        let input = Data(count: 150_000)
        let encoded = GzipStoredEncoder.encode(input)
        // header 10 + three blocks of 5 header bytes + data + trailer 8
        #expect(encoded.count == 10 + 3 * 5 + 150_000 + 8)
        #expect(encoded.prefix(2) == Data([0x1f, 0x8b]))
    }
}
