import Foundation
import Testing
import Tapedeck

@Suite struct PropertyListResponseSerializerTests {
    private let head = ResponseFixture.head(200, "application/x-plist")

    private static var sample: [String: Any] {
        [
            "foo": "bar", "count": 3, "ratio": 2.5, "on": true, "off": false,
            "when": Date(timeIntervalSince1970: 1_000_000), "bytes": Data([1, 2, 3]),
            "list": [1, "two", ["nested": "yes"]] as [Any],
        ]
    }

    private static let expected: PropertyListValue = [
        "foo": "bar", "count": 3, "ratio": 2.5, "on": true, "off": false,
        "when": .date(Date(timeIntervalSince1970: 1_000_000)), "bytes": .data(Data([1, 2, 3])),
        "list": [1, "two", ["nested": "yes"]],
    ]

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func parsesXMLAndBinaryPropertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.sample, format: format, options: 0)
        let value = try PropertyListResponseSerializer().serialize(head: head, data: data)
        #expect(value == Self.expected)
        #expect(value?["foo"]?.stringValue == "bar")
        #expect(value?["count"]?.intValue == 3)
        #expect(value?["ratio"]?.doubleValue == 2.5)
        #expect(value?["on"]?.boolValue == true)
        #expect(value?["list"]?[2]?["nested"] == "yes")
    }

    @Test func jsonIsNotAPropertyList() throws {
        // AFNetworking: testThatPropertyListResponseSerializerHandlesInvalidPlistData.
        let error = try #require(ResponseFixture.serializationError {
            try PropertyListResponseSerializer().serialize(head: head, data: ResponseFixture.utf8(#"{"foo":"bar"}"#))
        })
        guard case .decodingFailed(.propertyList, _, _, _) = error else {
            Issue.record("expected decodingFailed(.propertyList), got \(error)")
            return
        }
        #expect((error as NSError).code == NSURLErrorCannotDecodeContentData)
        #expect(((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == NSCocoaErrorDomain)
    }

    @Test func a204WithoutBodyGivesNilWithoutError() throws {
        // AFNetworking: testThatPropertyListResponseSerializerHandles204.
        let noContent = ResponseFixture.head(204, "application/x-plist")
        #expect(try PropertyListResponseSerializer().serialize(head: noContent, data: nil) == nil)
        #expect(try PropertyListResponseSerializer().serialize(head: noContent, data: Data()) == nil)
    }

    @Test func rejectsOtherContentTypes() {
        let data = ResponseFixture.utf8("<plist/>")
        #expect(throws: ResponseSerializationError.self) {
            try PropertyListResponseSerializer().serialize(head: ResponseFixture.head(200, "text/xml"), data: data)
        }
    }

    @Test func valuesRoundTripThroughFoundationObjects() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: Self.expected.foundationObject, format: .binary, options: 0
        )
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        #expect(PropertyListValue(foundationObject: object) == Self.expected)
        #expect(PropertyListValue(foundationObject: NSNull()) == nil)
    }
}
