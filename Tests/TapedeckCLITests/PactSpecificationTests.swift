import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore

/// The Pact specification's own matching testcases (Fixtures/PactSpecification, vendored with their licence), run
/// against `PactComparison`: each file says whether `actual` matches `expected`. XML bodies are not supported and
/// are counted apart. The pass counts are a floor: a change that makes a passing case fail fails the suite.
@Suite struct PactSpecificationTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/PactSpecification")

    struct Outcome {
        var passed: [String] = []
        var failed: [String] = []
        var xml: [String] = []
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
                if error.reason.contains("XML") { outcome.xml.append(name) } else { outcome.failed.append("\(name): \(error)") }
            }
        }
        return outcome
    }

    @Test(arguments: [2, 3, 4]) func specificationTestcases(version: Int) throws {
        let outcome = try Self.run(version: version)
        let total = outcome.passed.count + outcome.failed.count + outcome.xml.count
        let json = outcome.passed.count + outcome.failed.count
        print("Pact specification v\(version): \(outcome.passed.count) of \(total) testcases pass; of the \(json) without XML, "
              + "\(outcome.passed.count) pass (\(json == 0 ? 0 : outcome.passed.count * 100 / json)%); \(outcome.xml.count) XML not supported")
        for failure in outcome.failed { print("  v\(version) FAIL \(failure)") }
        #expect(total > 150)
        #expect(outcome.failed.isEmpty, "\(outcome.failed.count) failed")
    }
}
