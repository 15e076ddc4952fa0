import Foundation
import Testing
import TapedeckCassette
import TapedeckTestSupport

/// A cassette written in a newer format version than this Tapedeck reads is refused, by the loader and the
/// transport alike, with a message naming both versions; nothing of it is read or rewritten.
@Suite struct FormatVersionTests {
    /// A version 4 file: the corpus's error cassette with its version raised and a field v3 does not know.
    static func newerCassette(in directory: TemporaryDirectory) throws -> URL {
        let v1 = try String(contentsOf: CompatibilityCorpus.url("Cassettes/Compatibility/v1/errors.json"), encoding: .utf8)
        let v2 = v1.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 4,\n  \"createdBy\": \"tapedeck 4\",")
        #expect(v2 != v1)
        let url = directory.cassette("from-the-future.json")
        try Data(v2.utf8).write(to: url)
        return url
    }

    static func refusal(_ error: any Error, file: URL) -> Bool {
        guard case CassetteError.unsupportedVersion(file: file.path, found: "4", supported: 3) = error else { return false }
        let message = "\(error)"
        return message.contains("version 4") && message.contains("version 3") && message.contains(file.path)
            && message.contains("newer") && !message.contains("re-record")
    }

    @Test func theLoaderRefusesANewerVersionNamingBoth() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.newerCassette(in: directory)
        let before = try Data(contentsOf: url)
        #expect { try CassetteFile.load(url) } throws: { Self.refusal($0, file: url) }
        #expect { try openCassette(url, mode: .replay) } throws: { Self.refusal($0, file: url) }
        #expect(try Data(contentsOf: url) == before)
    }

    /// A recorder that would add to the file (new episodes) refuses it too, rather than append v1 interactions to it.
    @Test func aRecorderDoesNotAddToANewerVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.newerCassette(in: directory)
        let before = try Data(contentsOf: url)
        #expect { try openCassette(url, mode: .newEpisodes, upstream: CannedTransport([])) } throws: { Self.refusal($0, file: url) }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func anOlderOrUnknownVersionIsRefusedNamingBoth() throws {
        #expect {
            try CassetteCodec.decode(Data(#"{"version": 0, "interactions": []}"#.utf8), file: "old.json")
        } throws: { error in
            guard case CassetteError.unsupportedVersion(file: "old.json", found: "0", supported: 3) = error else { return false }
            return "\(error)".contains("version 0") && "\(error)".contains("versions 1 to 3")
        }
    }
}
