import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// `tapedeck migrate FILE --to VERSION` on the frozen corpus: what an older version cannot hold is left out and named,
/// a cassette it cannot hold at all is refused, and a file that needs nothing is left byte for byte.
@Suite struct MigrateEndToEndTests {
    static func copy(_ corpusFile: String, into directory: TemporaryDirectory) throws -> URL {
        let file = directory.cassette(URL(fileURLWithPath: corpusFile).lastPathComponent)
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent(corpusFile), to: file)
        return file
    }

    @Test func storedRulesAreLeftOutForVersion2AndNamed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.copy("Cassettes/Compatibility/v3/jsonrpc-rules.json", into: directory)
        let original = try CassetteFile.load(file)
        let originalBytes = try Data(contentsOf: file)

        let dry = try await CLIRunner.run(["migrate", file.path, "--to", "2", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("would leave out the stored replay rules (match method,url,jsonrpc(ignoring params: $.arguments.requestId))"))
        #expect(dry.stdout.contains("would be written as version 1 (was 3)"))
        #expect(try Data(contentsOf: file) == originalBytes, "a dry run writes nothing")

        let result = try await CLIRunner.run(["migrate", file.path, "--to", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("written as version 1 (was 3)"))
        let migrated = try CassetteFile.load(file)
        #expect(migrated.formatVersion == 1 && migrated.replayRules.isEmpty)
        #expect(migrated.interactions == original.interactions, "every interaction is kept as it was")
        #expect(try CassetteJSON.parse(Data(contentsOf: file))["version"] == 1)
    }

    @Test func aWebSocketConversationIsRefusedForVersion1() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.copy("Cassettes/Compatibility/v2/websocket-chat.json", into: directory)
        let before = try Data(contentsOf: file)
        let result = try await CLIRunner.run(["migrate", file.path, "--to", "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("interactions[1] holds a WebSocket conversation, which version 1 cannot hold; the lowest version for this cassette is 2"),
                "\(result.stderr)")
        #expect(try Data(contentsOf: file) == before)
        let unknown = try await CLIRunner.run(["migrate", file.path, "--to", "4"])
        #expect(unknown.status != 0 && unknown.stderr.contains("version 4 is not a cassette format version (Tapedeck writes 1, 2, 3)"), "\(unknown.stderr)")
    }

    @Test func aCassetteAnOlderReleaseReadsIsLeftAsItIs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.copy("Cassettes/Compatibility/v2/websocket-cut.json", into: directory)
        let before = try Data(contentsOf: file)
        let result = try await CLIRunner.run(["migrate", file.path, "--to", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("version 2 already, which every release that reads version 2 reads; nothing to change"))
        #expect(try Data(contentsOf: file) == before)
    }
}
