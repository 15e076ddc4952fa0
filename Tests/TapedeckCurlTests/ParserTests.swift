import Foundation
import Testing
import TapedeckCore
@testable import TapedeckCurl

@Suite struct ResponseHeadParserTests {
    private func feed(_ lines: [String]) -> [ResponseHeadParser.BlockOutcome] {
        var parser = ResponseHeadParser()
        return lines.compactMap { parser.consume(line: Substring($0 + "\r\n")) }
    }

    @Test func informationalResponsesAreSkipped() {
        let outcomes = feed(["HTTP/1.1 100 Continue", "", "HTTP/1.1 200 OK", "A: 1", ""])
        #expect(outcomes.first == .skipped)
        #expect(outcomes.last == .final(statusCode: 200, reasonPhrase: "OK", version: "HTTP/1.1", headers: ["A": "1"]))
    }

    @Test func redirectsAreTheHeadTheSessionFollowsThem() {
        let lines = ["HTTP/1.1 301 Moved Permanently", "Location: /next", ""]
        #expect(feed(lines)
            == [.final(statusCode: 301, reasonPhrase: "Moved Permanently", version: "HTTP/1.1", headers: ["Location": "/next"])])
        #expect(feed(["HTTP/1.1 304 Not Modified", ""]).first
            == .final(statusCode: 304, reasonPhrase: "Not Modified", version: "HTTP/1.1", headers: [:]))
    }

    @Test func http2StatusLinesHaveNoReason() {
        #expect(feed(["HTTP/2 204", "x: y", ""]).first
            == .final(statusCode: 204, reasonPhrase: "", version: "HTTP/2", headers: ["x": "y"]))
    }

    @Test func reasonsKeepInnerSpacesAndFoldedLinesJoinThePreviousValue() {
        #expect(feed(["HTTP/1.1  404\tNot  Found ", "X-Long: first", " \tsecond ", "Empty:", ""]).first
            == .final(statusCode: 404, reasonPhrase: "Not  Found", version: "HTTP/1.1",
                      headers: ["X-Long": "first second", "Empty": ""]))
    }

    @Test func aStatusLineWithoutADecimalCodeIsCodeZero() {
        var parser = ResponseHeadParser()
        #expect(parser.consume(line: "HTTP/1.1 2x0 Odd\r\n") == nil)
        #expect(parser.statusCode == 0)
        // With no status the block never completes.
        #expect(parser.consume(line: "\r\n") == nil)
    }

    @Test func nonASCIIValuesAreDecodedAsUTF8() {
        #expect(feed(["HTTP/1.1 200 OK", "X-Name: Zoë", ""]).first
            == .final(statusCode: 200, reasonPhrase: "OK", version: "HTTP/1.1", headers: ["X-Name": "Zoë"]))
    }

    @Test func valuesAreTrimmedAndColonsInValuesKept() {
        #expect(feed(["HTTP/1.1 200 OK", "Location:   http://h:1/p  ", ""]).first
            == .final(statusCode: 200, reasonPhrase: "OK", version: "HTTP/1.1", headers: ["Location": "http://h:1/p"]))
    }
}

@Suite struct HeaderLineTests {
    @Test func curlGetsEmptyValuesWithASemicolonAndNoExpectOrInventedContentType() {
        let request = HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1/")!, headers: ["A": "1", "Empty": ""])
        #expect(CurlTransfer.headerLines(for: request) == ["A: 1", "Empty;", "Expect:", "Content-Type:"])
        let typed = HTTPRequest(url: URL(string: "http://127.0.0.1/")!, headers: ["Content-Type": "text/plain", "Expect": "100-continue"])
        #expect(CurlTransfer.headerLines(for: typed) == ["Content-Type: text/plain", "Expect: 100-continue"])
    }
}

@Suite struct ExpectedContentLengthTests {
    private func length(_ value: String) -> Int64? {
        HTTPResponseHead(statusCode: 200, headers: ["Content-Length": value], url: URL(string: "http://127.0.0.1/")!)
            .expectedContentLength
    }

    @Test func digitsWithOptionalWhitespaceAreALength() {
        #expect(length("1024") == 1024)
        #expect(length(" \t42 ") == 42)
        #expect(length("0") == 0)
        #expect(length("123456789012345678") == 123_456_789_012_345_678)
    }

    @Test func anythingElseIsNoLength() {
        for value in ["", " ", "-1", "+5", "4 2", "12a", "0x10", "1234567890123456789"] {
            #expect(length(value) == nil, "\(value)")
        }
        #expect(HTTPResponseHead(statusCode: 200, url: URL(string: "http://127.0.0.1/")!).expectedContentLength == nil)
    }
}
