import Foundation
import Testing
import TapedeckTestSupport

/// Runs a test's body in a fresh copy of the test process, filtered to that one test, so process-wide accounting
/// (peak RSS, threads, descriptors) sees nothing but it, whatever other test targets run meanwhile.
///
/// Inside the child (marked by `TAPEDECK_ISOLATED_TEST`), `body` runs; in the parent, the child's exit status and
/// output become the test's result.
func inIsolatedProcess(_ testName: String, _ body: () async throws -> Void) async throws {
    let marker = "TAPEDECK_ISOLATED_TEST"
    if ProcessInfo.processInfo.environment[marker] == testName {
        try await body()
        return
    }
    let child = try await ExternalCommand.run(URL(fileURLWithPath: CommandLine.arguments[0]),
                                              ["--testing-library", "swift-testing", "--filter", testName],
                                              environment: ProcessInfo.processInfo.environment.merging([marker: testName]) { _, new in new })
    let text = String(decoding: child.standardOutput, as: UTF8.self) + child.standardError
    #expect(child.status == 0, "isolated run of \(testName) failed:\n\(text)")
    // The child must really have run the test, not filtered it away.
    #expect(text.contains("Test \(testName)") && text.contains("passed"), "isolated run of \(testName) did not run it:\n\(text)")
}

/// Names of this process's threads, from /proc.
func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
}
