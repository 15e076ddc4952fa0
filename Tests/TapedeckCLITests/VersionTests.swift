import Foundation
import Testing
import TapedeckCore

/// One version, everywhere it shows: `TapedeckVersion.current` is the only place it is written in the code, and the
/// tool, the README's dependency line, the getting-started article and the changelog's newest release agree with it.
@Suite struct VersionTests {
    static let version = TapedeckVersion.current

    static func text(_ path: String) throws -> String {
        try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theVersionIsSemantic() {
        let parts = Self.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) && ($0 == "0" || $0.first != "0") })
    }

    @Test func theToolPrintsIt() async throws {
        let result = try await CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == Self.version)
    }

    @Test func theDocumentsNameIt() throws {
        let dependency = #".package(url: "https://github.com/…/tapedeck.git", from: "\#(Self.version)""#
        #expect(try Self.text("README.md").contains(dependency), "README.md's dependency line")
        #expect(try Self.text("Sources/TapedeckTesting/TapedeckTesting.docc/GettingStarted.md").contains(dependency))
        let changelog = try Self.text("CHANGELOG.md")
        let released = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(released?.hasPrefix("## [\(Self.version)] - ") == true, "the changelog's newest release: \(released ?? "none")")
    }

    /// The literal is written once in Sources and Tools (Swift files); anything else reads `TapedeckVersion.current`.
    @Test func theLiteralIsWrittenOnce() throws {
        var found: [String] = []
        for folder in ["Sources", "Tools"] {
            let root = CLIRunner.packageRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: .skipsHiddenFiles)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                if text.contains("\"\(Self.version)\"") { found.append(file.path.replacingOccurrences(of: CLIRunner.packageRoot.path + "/", with: "")) }
            }
        }
        #expect(found == ["Sources/TapedeckCore/TapedeckVersion.swift"])
    }
}
