import Foundation
import Testing
import TapedeckConformance
import TapedeckCore

/// Every cassette of the format v1 compatibility corpus conforms to the format's JSON Schema, including the fixture
/// kept out of `Cassettes/` (a response `url`, which `tapedeck lint` reports).
@Suite struct CompatibilityCorpusSchemaTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folders = ["Cassettes/Compatibility/v1", "Tests/TapedeckCassetteTests/Fixtures/Compatibility/v1"]

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
        #expect(checked >= 8)
        // A v2 file is not a v1 cassette.
        let newer = try #require(JSONValue(parsing: Data(#"{"version": 2, "interactions": []}"#.utf8)))
        #expect(!validator.isValid(newer))
    }
}
