import Foundation
import OpenAPIKit
import TapedeckCore
import Testing
@testable import TapedeckConformance

/// `JSONValueEncoder` builds what `JSONEncoder` writes, read back by Tapedeck's parser: the same ``JSONValue`` for
/// every OpenAPI document in the repository (as the rules builder encodes it) and for the values `JSONEncoder` treats
/// its own way, and the same refusal at the same place for a number JSON cannot hold.
@Suite struct JSONValueEncoderTests {
    static func reference(_ value: some Encodable) throws -> JSONValue {
        try JSONValueParser.parse(JSONEncoder().encode(value), allowingFragments: true)
    }

    @Test(arguments: DocumentDecoderTests.documents) func encodesEveryDocumentAsJSONEncoder(_ path: String) throws {
        let data = try Data(contentsOf: DocumentDecoderTests.root.appendingPathComponent(path))
        let document = try OpenAPIDocumentReader.read(data, source: path)
        #expect(try JSONValueEncoder.encode(document) == Self.reference(document))
        #expect(try JSONValueEncoder.encode(document.components) == Self.reference(document.components))
    }

    @Test func encodesTheEdgeCaseDocumentAsJSONEncoder() throws {
        let document = try OpenAPIDocumentReader.read(Data(DocumentDecoderTests.edgeCases.utf8), source: "edge")
        #expect(try JSONValueEncoder.encode(document) == Self.reference(document))
    }

    /// Every container, the special types, a key written twice, a value that asks for no container.
    struct Everything: Encodable {
        enum Key: String, CodingKey { case a, b, c, d, e, nested, list, repeated, nothing, parent }
        struct Nothing: Encodable { func encode(to encoder: any Encoder) {} }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(Float(0.1), forKey: .a)
            try container.encode(URL(string: "https://example.com/a?b=c")!, forKey: .b)
            try container.encode(Data([0, 1, 2, 250]), forKey: .c)
            try container.encode(Decimal(string: "12.25")!, forKey: .d)
            try container.encode(Date(timeIntervalSinceReferenceDate: 1.5), forKey: .e)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .nested)
            try nested.encode(UInt64.max, forKey: .a)
            try nested.encodeNil(forKey: .b)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(Int8(-3))
            try list.encode("x")
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(true)
            var object = list.nestedContainer(keyedBy: Key.self)
            try object.encode(1.5e300, forKey: .a)
            try container.encode(1, forKey: .repeated)
            try container.encode("last", forKey: .repeated)
            try container.encode(Nothing(), forKey: .nothing)
            try [1, 2].encode(to: container.superEncoder(forKey: .parent))
            try "super".encode(to: container.superEncoder())
        }
    }

    @Test func encodesEveryContainerAndSpecialTypeAsJSONEncoder() throws {
        #expect(try JSONValueEncoder.encode(Everything()) == Self.reference(Everything()))
        #expect(try JSONValueEncoder.encode([Float(3.4e38), -0.0]) == Self.reference([Float(3.4e38), -0.0]))
        #expect(try JSONValueEncoder.encode("top") == .string("top"))
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan])
    func refusesANumberJSONCannotHoldAtItsPlace(_ number: Double) throws {
        let value = ["a": [[1, number]]]
        func place(_ run: () throws -> JSONValue) -> [String]? {
            do { _ = try run() } catch let EncodingError.invalidValue(_, context) {
                return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            } catch { return nil }
            return nil
        }
        let reference = place { try Self.reference(value) }
        #expect(reference == ["a", "0", "1"])
        #expect(place { try JSONValueEncoder.encode(value) } == reference)
    }
}
