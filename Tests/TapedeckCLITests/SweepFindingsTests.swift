import Foundation
import Testing
import TapedeckTestSupport

/// What the CLI mutation sweep (``CLIMutationSweepTests``) found, each kept as a test of its own.
@Suite struct SweepFindingsTests {
    /// A sidecar cassette whose body file name was damaged: the error was Foundation's NSCocoaErrorDomain 260 with the
    /// sidecar's absolute path and not the cassette's. It now names the cassette, the sidecar path as written in it,
    /// the body's place in the cassette, and says "does not exist".
    @Test func aMissingSidecarBodyNamesTheCassetteAndThePathInWords() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let v1 = CLIRunner.packageRoot.appendingPathComponent("Cassettes/Compatibility/v1")
        try FileManager.default.copyItem(at: v1.appendingPathComponent("sidecar.bodies"), to: directory.file("sidecar.bodies"))
        let cassette = directory.file("sidecar.json")
        let text = try String(contentsOf: v1.appendingPathComponent("sidecar.json"), encoding: .utf8)
        try #require(text.contains("0f6e64be186af6a4.bin"))
        try Data(text.replacingOccurrences(of: "0f6e64be186af6a4.bin", with: "0f6e9223372036854775807.bin").utf8).write(to: cassette)
        for arguments in [["convert", cassette.path, "--to", "har", "-o", directory.file("out.har").path], ["redact", cassette.path]] {
            let result = try await CLIRunner.run(arguments)
            #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains("could not read the sidecar body sidecar.bodies/0f6e9223372036854775807.bin named at interactions[1].response.body in \(cassette.path): does not exist"),
                    "\(arguments[0]): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(arguments[0]): \(result.stderr)")
        }
    }
}
