import Foundation
import Testing
import TapedeckTestSupport

/// The cross-check runner survives a tool that ends before reading its input: without SIGPIPE ignored, the write
/// ended the whole test process without a word (and `swift test` then hung on its children's pipes).
@Suite struct ExternalCommandTests {
    @Test func aToolThatEndsWithoutReadingItsInputGivesItsStatusAndErrors() async throws {
        let python = try #require(ExternalCommand.find("python3"))
        let output = try await ExternalCommand.run(python, ["-c", "import sys; sys.stderr.write('no\\n'); sys.exit(3)"],
                                                   input: Data(count: 4 << 20))
        #expect(output.status == 3)
        #expect(output.standardError == "no\n")
    }
}
