import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckTestSupport

/// Every frozen cassette of the format v1 corpus loads and is saved again byte for byte: today's writer still writes
/// what the corpus holds, and today's reader loses nothing of it.
@Suite struct CompatibilityRoundTripTests {
    @Test func theCorpusIsThere() {
        // Eight cassettes in Cassettes/Compatibility/v1, the fixture of the shape lint reports, two in v2.
        #expect(CompatibilityCorpus.files.count >= 10, "\(CompatibilityCorpus.files)")
        #expect(CompatibilityCorpus.files.contains("Cassettes/Compatibility/v2/websocket-chat.json"))
        #expect(CompatibilityCorpus.files.contains("Tests/TapedeckCassetteTests/Fixtures/Compatibility/v1/redirect-followed.json"))
    }

    @Test(arguments: CompatibilityCorpus.files)
    func loadsAndSavesByteIdentically(_ file: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Data(contentsOf: CompatibilityCorpus.url(file))
        let cassette = try CassetteFile.load(CompatibilityCorpus.url(file))
        #expect(!cassette.interactions.isEmpty)
        let saved = directory.cassette("saved.json")
        try CassetteFile.save(cassette, to: saved)
        let again = try Data(contentsOf: saved)
        #expect(again == original, "\(file) is written back differently:\n\(Self.firstDifference(original, again))")
        #expect(try CassetteFile.load(saved) == cassette)
    }

    /// The one spelling the reader takes and the writer never writes: `"format": "compact"`, the default, is left out.
    @Test func anExplicitCompactFormatIsWrittenAsTheDefault() throws {
        let explicit = Data(#"{"version": 1, "interactions": [{"recordedAt": "2026-11-25T09:00:00.000Z", "request": {"method": "GET", "url": "http://127.0.0.1/", "headers": []}, "response": {"status": 200, "headers": [], "body": {"encoding": "json", "json": {"a": 1}, "format": "compact"}}}]}"#.utf8)
        let cassette = try CassetteCodec.decode(explicit)
        #expect(cassette.interactions.first?.response?.body.inlineData == Data(#"{"a":1}"#.utf8))
        let saved = try CassetteJSON.parse(CassetteCodec.encode(cassette))
        let body = saved["interactions"]?.arrayValue?.first?["response"]?["body"]
        #expect(body == ["encoding": "json", "json": ["a": 1]])
    }

    /// Sidecar files are named by the XXH64 of their content, and each body's `byteCount` is the file's size.
    @Test(arguments: CompatibilityCorpus.files)
    func sidecarsMatchTheirReferences(_ file: String) throws {
        let url = CompatibilityCorpus.url(file)
        let cassette = try CassetteFile.load(url)
        let bodies = cassette.interactions.flatMap { [$0.request.body] + ($0.response.map { [$0.body] } ?? []) }
        for body in bodies {
            guard let path = body.sidecarPath else { continue }
            let data = try CassetteFile.bodyData(body, cassette: url)
            #expect(Int64(data.count) == body.byteCount, "\(path)")
            #expect(path == CassetteFile.sidecarFolder(url) + "/" + ContentHash.of(data) + ".bin")
        }
    }

    /// The first line where two files differ, with both versions, for the failure message.
    static func firstDifference(_ expected: Data, _ actual: Data) -> String {
        let old = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let new = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? String(old[index]) : "<end of file>"
            let after = index < new.count ? String(new[index]) : "<end of file>"
            if before != after { return "line \(index + 1): frozen \(before)\n        saved  \(after)" }
        }
        return "(same lines; the bytes differ)"
    }
}
