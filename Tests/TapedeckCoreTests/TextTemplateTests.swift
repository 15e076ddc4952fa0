import Foundation
import Testing
import TapedeckCore

@Suite struct TextTemplateTests {
    let request = HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1/orders/7?page=2&q=a%20b")!,
                              headers: ["X-Request-Id": "r-42"], body: .data(Data(#"{"item":{"sku":"abc"},"n":3}"#.utf8)))
    let now = Date(timeIntervalSince1970: 784_111_777.5)

    @Test func placeholdersReadTheRequestAndTheClock() throws {
        let template = try TextTemplate(
            "{{method}} {{path}} {{query.q}} {{request.header.x-request-id}} {{json.item.sku}} {{json.n}} [{{query.none}}] {{now}} | {{now.http}}")
        #expect(template.hasPlaceholders)
        #expect(template.render(for: request, now: now)
                == "POST /orders/7 a b r-42 abc 3 [] 1994-11-06T08:49:37.500Z | Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func textWithoutPlaceholdersRendersAsItself() throws {
        let template = try TextTemplate(#"{"plain":true}"#)
        #expect(!template.hasPlaceholders)
        #expect(template.render(for: request) == #"{"plain":true}"#)
    }

    @Test func badPlaceholdersSayWhere() {
        let error = #expect(throws: TextTemplate.Error.self) { try TextTemplate("ok {{request.cookie}}") }
        #expect(error?.reason.hasPrefix(#"unknown placeholder "{{request.cookie}}" at character 3"#) == true)
    }
}
