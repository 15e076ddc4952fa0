import Foundation
import Testing
import TapedeckConformance
import TapedeckCore

/// Every cassette of the format v1, v2 and v3 compatibility corpus conforms to the format's JSON Schema, including the fixture
/// kept out of `Cassettes/` (a response `url`, which `tapedeck lint` reports).
@Suite struct CompatibilityCorpusSchemaTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folders = ["Cassettes/Compatibility/v1", "Tests/TapedeckCassetteTests/Fixtures/Compatibility/v1", "Cassettes/Compatibility/v2", "Cassettes/Compatibility/v3"]

    @Test func everyCorpusCassetteConformsToTheSchema() throws {
        let schema = try #require(JSONValue(parsing: Data(contentsOf: Self.packageRoot.appendingPathComponent("Cassettes/cassette.schema.json"))))
        let validator = try JSONSchemaValidator(schema: schema)
        var checked = 0
        for folder in Self.folders {
            let directory = Self.packageRoot.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".json") {
                let cassette = try #require(JSONValue(parsing: Data(contentsOf: directory.appendingPathComponent(name))))
                let violations = validator.violations(of: cassette)
                #expect(violations.isEmpty, "\(folder)/\(name): \(violations)")
                checked += 1
            }
        }
        #expect(checked >= 10)
        // A v4 file is not a cassette this schema describes, nor a frame with two payloads.
        let newer = try #require(JSONValue(parsing: Data(#"{"version": 4, "interactions": []}"#.utf8)))
        #expect(!validator.isValid(newer))
        let twoPayloads = try #require(JSONValue(parsing: Data(#"""
            {"version": 2, "interactions": [{"recordedAt": "2026-01-01T00:00:00.000Z", "request": {"method": "GET", "url": "ws://a/", "headers": []},
             "response": {"status": 101, "headers": []}, "webSocket": {"frames": [{"from": "client", "at": 0, "text": "a", "ping": ""}]}}]}
            """#.utf8)))
        #expect(!validator.isValid(twoPayloads))
    }
}
