import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore

/// The Pact specification's own matching testcases (Fixtures/PactSpecification, vendored with their licence), run
/// against `PactComparison`: each file says whether `actual` matches `expected`. The XML cases (named `… xml`, and the
/// namespace ones) are counted apart and printed with the others.
@Suite struct PactSpecificationTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/PactSpecification")

    struct Outcome {
        var passed: [String] = []
        var failed: [String] = []

        static func isXML(_ name: String) -> Bool { name.contains("xml") }
        var xmlPassed: Int { passed.count(where: Self.isXML) }
        var xmlTotal: Int { xmlPassed + failed.count(where: Self.isXML) }
    }

    static func run(version: Int) throws -> Outcome {
        var outcome = Outcome()
        let root = folder.appendingPathComponent("v\(version)")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        for file in files {
            let name = String(file.path.dropFirst(root.path.count + 1))
            let testcase = try #require(CassetteJSON.parseBody(Data(contentsOf: file)), "\(name) is not JSON")
            guard case .bool(let shouldMatch)? = testcase["match"], let expected = testcase["expected"], let actual = testcase["actual"] else {
                Issue.record("\(name): not a testcase")
                continue
            }
            do {
                let comparison = try PactComparison(expected: expected, version: version, isRequest: name.hasPrefix("request/"))
                let mismatches = try comparison.mismatches(actual: actual)
                if mismatches.isEmpty == shouldMatch {
                    outcome.passed.append(name)
                } else {
                    outcome.failed.append("\(name) (expected \(shouldMatch ? "a match" : "no match")\(mismatches.isEmpty ? "" : ": \(mismatches)"))")
                }
            } catch {
                outcome.failed.append("\(name): \(error)")
            }
        }
        return outcome
    }

    /// The one case Tapedeck decides otherwise, and why: its v4 form puts the attribute rule under an index step
    /// (`$.animals[*].alligator['@phoneNumber']`, beside `$.animals.0` and `$.animals.1`), while the v2 and v3 forms,
    /// pact-jvm and pact_matching's XML paths have no index steps (`$.animals.alligator['@phoneNumber']`), so the rule
    /// applies to nothing and `abc` passes the inherited `type` rule.
    static let knownFailures: Set<String> = ["v4 request/body/array with regular expression that does not match in element xml.json"]

    @Test(arguments: [2, 3, 4]) func specificationTestcases(version: Int) throws {
        let outcome = try Self.run(version: version)
        let total = outcome.passed.count + outcome.failed.count
        print("Pact specification v\(version): \(outcome.passed.count) of \(total) testcases pass; of the \(outcome.xmlTotal) XML ones, "
              + "\(outcome.xmlPassed) pass")
        for failure in outcome.failed { print("  v\(version) FAIL \(failure)") }
        #expect(total > 150)
        let unexpected = outcome.failed.filter { failure in !Self.knownFailures.contains { failure.hasPrefix(String($0.dropFirst(3))) && $0.hasPrefix("v\(version) ") } }
        #expect(unexpected.isEmpty, "\(unexpected.count) failed")
    }
}
