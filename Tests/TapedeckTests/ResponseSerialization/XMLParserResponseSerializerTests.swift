import Foundation
import Testing
import Tapedeck

@Suite struct XMLParserResponseSerializerTests {
    private let sample = ResponseFixture.utf8(
        #"<?xml version="1.0" encoding="UTF-8"?><foo attr2="2" attr1="1"><bar>someValue</bar></foo>"#
    )

    @Test(arguments: ["application/xml", "text/xml", "text/xml; charset=utf-8"])
    func acceptsTheStandardXMLTypes(contentType: String) throws {
        let head = ResponseFixture.head(200, contentType)
        let root = try XMLParserResponseSerializer().serialize(head: head, data: sample)
        #expect(root?.name == "foo")
    }

    @Test func rejectsANonstandardXMLType() throws {
        let head = ResponseFixture.head(200, "nonstandard/xml")
        let error = try #require(ResponseFixture.serializationError {
            try XMLParserResponseSerializer().serialize(head: head, data: sample)
        })
        #expect(error.isUnacceptableContentType)
    }

    @Test func parsesElementsAttributesAndText() throws {
        let root = try #require(try XMLParserResponseSerializer().serialize(
            head: ResponseFixture.head(200, "application/xml"), data: sample
        ))
        #expect(root.attributes.map(\.name) == ["attr1", "attr2"])
        #expect(root[attribute: "attr1"] == "1")
        #expect(root[attribute: "attr2"] == "2")
        #expect(root[attribute: "missing"] == nil)
        #expect(root.children.count == 1)
        #expect(root.firstChild(named: "bar")?.text == "someValue")
        #expect(root.text.isEmpty)
    }

    @Test func keepsMixedContentInOrderAndResolvesEntitiesAndCDATA() throws {
        let body = ResponseFixture.utf8("<p>one <b>two</b> three &amp; <![CDATA[<four>]]><i/></p>")
        let root = try #require(try XMLParserResponseSerializer().serialize(
            head: ResponseFixture.head(200, "text/xml"), data: body
        ))
        #expect(root.contents == [
            .text("one "),
            .element(ParsedXMLElement(name: "b", contents: [.text("two")])),
            .text(" three & <four>"),
            .element(ParsedXMLElement(name: "i")),
        ])
        #expect(root.text == "one  three & <four>")
        #expect(root.children(named: "b").count == 1)
    }

    @Test func processesNamespacesWhenAsked() throws {
        let body = ResponseFixture.utf8(#"<s:Envelope xmlns:s="urn:soap"><s:Body/></s:Envelope>"#)
        let head = ResponseFixture.head(200, "text/xml")
        let raw = try #require(try XMLParserResponseSerializer().serialize(head: head, data: body))
        #expect(raw.name == "s:Envelope")
        #expect(raw.namespaceURI == nil)
        let namespaced = XMLParserResponseSerializer(processesNamespaces: true)
        let processed = try #require(try namespaced.serialize(head: head, data: body))
        #expect(processed.name == "Envelope")
        #expect(processed.namespaceURI == "urn:soap")
        #expect(processed.children.first?.name == "Body")
    }

    @Test(arguments: [
        "<foo><bar></foo>", "not xml at all", "<a>unclosed", "<a/><b/>", "<a/>junk", "   ", #"<?xml version="1.0"?>"#,
    ])
    func invalidXMLThrows1016WithTheParserErrorUnderneath(text: String) throws {
        let head = ResponseFixture.head(200, "application/xml")
        let error = try #require(ResponseFixture.serializationError {
            try XMLParserResponseSerializer().serialize(head: head, data: ResponseFixture.utf8(text))
        })
        guard case .decodingFailed(.xml, _, _, _) = error else {
            Issue.record("expected decodingFailed(.xml), got \(error)")
            return
        }
        let nsError = error as NSError
        #expect(nsError.code == NSURLErrorCannotDecodeContentData)
        #expect(nsError.userInfo[NSUnderlyingErrorKey] is NSError)
    }

    @Test func emptyBodyGivesNil() throws {
        #expect(try XMLParserResponseSerializer().serialize(head: ResponseFixture.head(204), data: nil) == nil)
        let head = ResponseFixture.head(200, "text/xml")
        #expect(try XMLParserResponseSerializer().serialize(head: head, data: Data()) == nil)
    }
}
