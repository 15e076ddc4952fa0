import Foundation
import Testing
import TapedeckCore

@Suite struct MultipartParserTests {
    @Test func multipartPartsAreSplitWithTheirHeaders() throws {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nvalue\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nline1\r\nline2\r\n"
            + "--XyZ--\r\n"
        let parts = try MultipartParser.parts(of: Data(body.utf8), contentType: "multipart/form-data; boundary=XyZ")
        #expect(parts.count == 2)
        #expect(parts[0].name == "field")
        #expect(parts[0].body == Data("value".utf8))
        #expect(parts[1].fileName == "a.txt")
        #expect(parts[1].contentType == "text/plain")
        #expect(parts[1].headers["content-disposition"] == #"form-data; name="file"; filename="a.txt""#)
        #expect(parts[1].body == Data("line1\r\nline2".utf8))
    }

    @Test func quotedBoundariesAreUnquoted() {
        #expect(MultipartParser.boundary(inContentType: #"multipart/form-data; charset=utf-8; boundary="a b""#) == "a b")
        #expect(MultipartParser.boundary(inContentType: "multipart/form-data") == nil)
        #expect(MultipartParser.boundary(inContentType: #"multipart/form-data; boundary="""#) == nil)
    }

    @Test func aBodyOfUnknownTypeNamesItsBoundaryInItsFirstLine() {
        #expect(MultipartParser.leadingBoundary(of: Data("--B-42\r\nrest".utf8)) == "B-42")
        #expect(MultipartParser.leadingBoundary(of: Data("B-42\r\n".utf8)) == nil)
        #expect(MultipartParser.leadingBoundary(of: Data("--\r\n".utf8)) == nil)
    }

    @Test func aPartWithoutHeadersKeepsBlankLinesInItsBody() throws {
        let parts = try MultipartParser.parts(of: Data("preamble\r\n--b\r\n\r\nx\r\n\r\ny\r\n--b--".utf8), boundary: "b")
        #expect(parts == [MultipartPart(headers: [:], body: Data("x\r\n\r\ny".utf8))])
        #expect(parts[0].name == nil)
    }

    @Test func malformedBodiesSayWhatIsWrong() {
        #expect(throws: MultipartParser.ParseError.missingBoundary(contentType: "multipart/form-data")) {
            try MultipartParser.parts(of: Data(), contentType: "multipart/form-data")
        }
        #expect {
            try MultipartParser.parts(of: Data("--b\r\nno end".utf8), contentType: "multipart/form-data; boundary=b")
        } throws: { error in
            "\(error)".contains("part 1 is not closed")
        }
        #expect(throws: MultipartParser.ParseError.malformed(reason: "part 1 has no blank line after its headers")) {
            try MultipartParser.parts(of: Data("--b\r\nA: 1\r\n--b--".utf8), boundary: "b")
        }
        #expect(throws: MultipartParser.ParseError.self) { try MultipartParser.parts(of: Data("--b--".utf8), boundary: "c") }
    }
}
