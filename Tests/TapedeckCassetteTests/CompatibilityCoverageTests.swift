import Foundation
import Testing
import TapedeckCassette

/// The format v1 corpus uses every key the JSON Schema defines (and every value of its enumerations: each body
/// encoding, each JSON format), and no key the schema does not define.
@Suite struct CompatibilityCoverageTests {
    static func schemaKeys() throws -> SchemaKeys {
        SchemaKeys(schema: try CassetteJSON.parse(try Data(contentsOf: CompatibilityCorpus.schema)))
    }

    /// Enumerated values the writer spells by leaving the key out: `format` `compact` is a `json` body without
    /// `format` (the reader takes an explicit `"format": "compact"` too, and the writer drops it; see
    /// `CompatibilityRoundTripTests.anExplicitCompactFormatIsWrittenAsTheDefault`).
    static func valuesWrittenAsAbsence(in document: CassetteJSON) -> Set<String> {
        let bodies = (document["interactions"]?.arrayValue ?? []).flatMap { interaction in
            [interaction["request"]?["body"], interaction["response"]?["body"]].compactMap { $0 }
        }
        return bodies.contains { $0["encoding"] == "json" && $0["format"] == nil } ? ["body.format=compact"] : []
    }

    @Test func theSchemaListsKeysAtEveryLevel() throws {
        let defined = try Self.schemaKeys().defined
        for key in ["cassette.version", "interaction.recordedAt", "request.url", "response.url", "response.interruptedBy",
                    "error.transportMessage", "timing.redirectCount", "interaction.tls.peerCertificates", "body.byteCount",
                    "body.contentEncoding", "body.encoding=file", "body.format=spaced-escaped"] {
            #expect(defined.contains(key), "\(key) is not among \(defined.sorted())")
        }
        #expect(!defined.contains { $0.hasPrefix("unresolved") }, "\(defined.sorted())")
    }

    @Test func everyKeyOfTheSchemaIsInTheCorpus() throws {
        let schema = try Self.schemaKeys()
        var used = Set<String>()
        for file in CompatibilityCorpus.files {
            let document = try CassetteJSON.parse(try Data(contentsOf: CompatibilityCorpus.url(file)))
            let found = schema.used(by: document)
            used.formUnion(found.keys)
            used.formUnion(Self.valuesWrittenAsAbsence(in: document))
            #expect(found.undeclared.isEmpty, "\(file) uses keys the schema does not define: \(found.undeclared.sorted())")
        }
        let missing = schema.defined.subtracting(used).sorted()
        #expect(missing.isEmpty, "no cassette of the compatibility corpus uses \(missing.joined(separator: ", ")); add one to Cassettes/Compatibility/v1")
    }

    /// The check can fail: a cassette without a response `url` or a templated response does not cover them.
    @Test func aKeyMissingFromTheDocumentsIsNoticed() throws {
        let schema = try Self.schemaKeys()
        let cassette = Cassette(interactions: [Interaction(
            request: .init(method: "GET", url: "http://127.0.0.1/"),
            outcome: .response(.init(statusCode: 200, body: CassetteBody(Data("hi".utf8)))))])
        let found = schema.used(by: try CassetteJSON.parse(CassetteCodec.encode(cassette)))
        #expect(found.keys.contains("request.url") && found.keys.contains("body.encoding=utf8"))
        #expect(!found.keys.contains("response.url") && !found.keys.contains("response.templated"))
        #expect(!found.keys.contains("body.encoding=json"))
        #expect(Self.valuesWrittenAsAbsence(in: try CassetteJSON.parse(CassetteCodec.encode(cassette))).isEmpty)
        let extra = schema.used(by: ["version": 1, "interactions": [["recordedAt": "x", "colour": "red"]]])
        #expect(extra.undeclared == ["interaction.colour?"])
    }
}
