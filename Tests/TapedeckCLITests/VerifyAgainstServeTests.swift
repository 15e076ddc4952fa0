import Foundation
import Testing
import TapedeckCassette
import TapedeckCLICore
import TapedeckTestSupport

/// The property that a cassette honours its own contract: `tapedeck verify` of every cassette in the repository
/// (Cassettes/, the test fixtures, and the vcrpy and Ruby VCR fixtures once converted) against `tapedeck serve` of
/// the same cassette passes. It once failed for arrays whose elements differ in shape, for recorded interruptions
/// and for URLs with user information.
@Suite struct VerifyAgainstServeTests {
    /// Every file under `Cassettes/` and the test targets' `Fixtures/` folders that loads as a cassette, and the VCR
    /// fixtures, relative to the package root; not the mutation sweep's findings (`Fixtures/Sweep/`), damaged on purpose.
    static let cassettes: [String] = {
        let root = CLIRunner.packageRoot
        var found: [String] = []
        for folder in ["Cassettes", "Tests"] {
            guard let walker = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker {
                let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                let isFixture = (relative.hasPrefix("Cassettes/") || relative.contains("/Fixtures/")) && !relative.contains("/Fixtures/Sweep/")
                guard isFixture, ["json", "yaml", "yml"].contains(url.pathExtension) else { continue }
                if url.pathExtension == "json" ? (try? CassetteFile.load(url)) != nil : relative.contains("/Fixtures/VCR/") {
                    found.append(relative)
                }
            }
        }
        return found.sorted()
    }()

    @Test func theRepositoryHasCassettesToCheck() {
        #expect(Self.cassettes.count >= 15, "\(Self.cassettes)")
        #expect(Self.cassettes.contains("Tests/TapedeckCLITests/Fixtures/VCR/vcrpy-plain.yaml"))
    }

    @Test(arguments: cassettes) func verifyPassesAgainstServeOfTheSameCassette(_ relative: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var file = CLIRunner.packageRoot.appendingPathComponent(relative)
        if file.pathExtension != "json" {
            let imported = try VCRImport.cassette(fromYAMLData: Data(contentsOf: file), file: relative, recordedAt: Date(timeIntervalSince1970: 0))
            file = directory.url.appendingPathComponent("converted.json")
            try CassetteFile.save(imported.cassette, to: file)
        }
        let (process, _, base) = try await CLIRunner.startServing(["serve", file.path, "--port", "0", "--host", "127.0.0.1"])
        defer { if process.isRunning { process.terminate() } }
        try #require(!base.isEmpty, "serve printed no base URL for \(relative)")
        // A recorded stall is verified by timing out: three seconds are enough against a loopback server.
        let result = try await CLIRunner.run(["verify", file.path, "--against", base, "--timeout", "3"])
        #expect(result.status == 0, "\(relative):\n\(result.stdout)\(result.stderr)")
    }
}
