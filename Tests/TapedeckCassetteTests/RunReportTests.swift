import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckTestSupport
import TapedeckTesting

/// A run report says what the tests played; `CassettePruning.prune` keeps only that.
@Suite struct RunReportTests {
    private func cassette(_ directory: TemporaryDirectory) throws -> URL {
        try CassetteFile.save(Cassette(interactions: (0..<4).map { interaction("GET", "https://api.example.test/\($0)") }),
                              to: directory.cassette())
        return directory.cassette()
    }

    @Test func scopesAppendWhatTheyPlayedAndPruningKeepsTheUnion() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try cassette(directory)
        let report = directory.file("run.jsonl")
        for paths in [["0"], ["2", "0"]] {
            let scope = CassetteScope(cassette: file, mode: .replay, configuration: CassetteConfiguration(allowPlaybackRepeats: true),
                                      environment: [RunReport.environmentVariable: report.path])
            let failures = try await scope.run { transport in
                for path in paths { _ = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.test/\(path)")!)) }
            }
            #expect(failures.isEmpty)
        }
        #expect(try RunReport.played(in: report, cassette: file, interactionCount: 4) == [0, 2])
        #expect(try CassettePruning.prune(file, keeping: [0, 2], dryRun: true) == ["#1 GET https://api.example.test/1", "#3 GET https://api.example.test/3"])
        #expect(try CassetteFile.load(file).interactions.count == 4, "a dry run writes nothing")
        _ = try CassettePruning.prune(file, keeping: [0, 2])
        #expect(try CassetteFile.load(file).interactions.map(\.request.url) == ["https://api.example.test/0", "https://api.example.test/2"])
    }

    @Test func aReportFromAnotherVersionOfTheCassetteIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try cassette(directory)
        let report = directory.file("run.jsonl")
        var summary = CassetteSummary(file: file.path, mode: .replay, interactionCount: 3, unplayed: [])
        summary.played = [0]
        try RunReport.append(summary, to: report)
        let error = #expect(throws: CassetteError.self) { try RunReport.played(in: report, cassette: file, interactionCount: 4) }
        #expect("\(error!)".contains("line 1") && "\(error!)".contains("3 interactions"))
        try Data("not json\n".utf8).write(to: report)
        #expect(throws: CassetteError.self) { try RunReport.played(in: report, cassette: file, interactionCount: 4) }
        try Data().write(to: report)
        let unused = #expect(throws: CassetteError.self) { try RunReport.played(in: report, cassette: file, interactionCount: 4) }
        #expect("\(unused!)".contains("no run in the report used"))
    }
}
