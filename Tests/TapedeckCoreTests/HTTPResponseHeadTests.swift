import Foundation
import Testing
import TapedeckCore

@Suite struct HTTPResponseHeadTests {
    private func head(contentType: String?) -> HTTPResponseHead {
        var headers: HTTPHeaders = [:]
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPResponseHead(statusCode: 200, headers: headers, url: URL(string: "http://127.0.0.1/")!)
    }

    @Test(arguments: [
        ("application/json", "application/json"),
        ("application/json; charset=utf-8", "application/json"),
        ("  Text/HTML ;charset=ISO-8859-1", "text/html"),
        ("\tapplication/problem+json\t", "application/problem+json"),
        ("IMAGE/PNG", "image/png"),
        ("", ""),
        (" ; charset=utf-8", ""),
    ])
    func mimeTypeIsTheLowercasedTypeWithoutParameters(contentType: String, expected: String) {
        #expect(head(contentType: contentType).mimeType == expected)
    }

    @Test func noContentTypeMeansNoMIMEType() {
        #expect(head(contentType: nil).mimeType == nil)
    }

    @Test(arguments: [("42", Int64(42)), (" 7 ", 7), ("1x", nil), ("", nil), ("-1", nil)] as [(String, Int64?)])
    func expectedContentLengthReadsDigitsOnly(value: String, expected: Int64?) {
        var head = head(contentType: nil)
        head.headers["Content-Length"] = value
        #expect(head.expectedContentLength == expected)
    }
}
