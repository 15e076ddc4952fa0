import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckTestSupport

/// The recording journal: lines land in the file as they are appended (through a shared mapping), across the
/// chunks the file grows by; its zero-filled tail reads as nothing; closing cuts the file to its lines.
@Suite struct JournalTests {
    @Test func linesAreInTheFileAtOnceAndTheTailIsIgnored() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.cassette("j.json")
        let path = CassetteFile.journalURL(url).path
        var interactions: [Interaction] = []
        var journal: Journal? = try Journal(path: path)
        var written = 0
        // Enough lines to cross the first chunk and grow the file twice.
        while written < 2 * Journal.chunk + 100 {
            let recorded = interaction("GET", "http://127.0.0.1/item/\(interactions.count)", responseBody: String(repeating: "x", count: 3_000))
            let line = CassetteFile.journalLine(recorded, sequence: interactions.count)
            try journal?.append(line)
            interactions.append(recorded)
            written += line.count
        }
        // Read back while still open, as a recorder that died now would leave it: the lines, then zeros.
        let open = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(open.count > written)
        #expect(open[written...].allSatisfy { $0 == 0 })
        #expect(try CassetteFile.journaledInteractions(open, after: 0, file: path) == interactions)

        journal = nil
        let closed = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(closed.count == written)
        #expect(try CassetteFile.journaledInteractions(closed, after: 0, file: path) == interactions)
    }

    @Test func openingOrTruncatingEmptiesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.cassette("j.json.journal").path
        try Data("left over\n".utf8).write(to: URL(fileURLWithPath: path))
        let journal = try Journal(path: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        try journal.append(Array("one\n".utf8))
        try journal.truncate()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        try journal.append(Array("two\n".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4) == Data("two\n".utf8))
    }
}
