import Foundation
import Testing
@testable import TapedeckCassette
import TapedeckCurl
import TapedeckStubServer
import TapedeckTestSupport

@Suite struct ContentCodingTests {
    /// Made by Python's gzip.compress (zlib): fixed and dynamic Huffman blocks.
    static let fixedHuffman = "H4sIAAAAAAACA0tMSk6EIYWM1JycfGQSAMUy3IIeAAAA"
    static let dynamicHuffman = "H4sIAAAAAAACA53WSVIDMQwF0D2n8BHaGjxwG4YGAk0aEkICp6dg7d+/0D6/LFtP6iy7/Zym6/TxNKf30+7uJd0e1vM+PayXNKXn0+vbMa2f8+HvB8vN91e6Xx+vlt9UHqfydkrGKdtO6TjVt1MGKizbMR/HxLdjZRxTcloFD0Lu1saxQh6yj2ONdC0DIkpiwIiQKjNSUkkOOKlCckAKiwEpyl4TUCnsPGClE5kZYFHWPqClks0gQEsm9xPAxUmdArh0MnoCuBjhKYBLZ7sPeDF2P+ClszqBF2f9A14aiQEuhfBUwEXItCvg0kidCrg4+wgBLkJYK+DSyIpXwKUQZoq+RKwPgEtm5yEuZPwUeSE5A16M9N2AFyX9M+Als/OAF3Y9tF3IljDApZG2G+BS2b8rwKWy8wCXyu7XYzmfYnV6jr2LS6wPrrG+u4WYucdUe4lNkdfY1HqLbQnv/95KP9Q37VwNDQAA"

    static var expectedText: String {
        (0..<60).map { "line \($0): the quick brown fox \($0 * $0 % 97) jumps over the lazy dog\n" }.joined()
    }

    @Test func decodesZlibOutputAndRejectsDamage() throws {
        #expect(ContentCoding.gunzip(try #require(Data(base64Encoded: Self.fixedHuffman))) == Data("abcabcabcabc hello hello hello".utf8))
        var dynamic = try #require(Data(base64Encoded: Self.dynamicHuffman))
        #expect(ContentCoding.gunzip(dynamic) == Data(Self.expectedText.utf8))
        dynamic[dynamic.count - 6] ^= 0xFF  // breaks the CRC
        #expect(ContentCoding.gunzip(dynamic) == nil)
        #expect(ContentCoding.gunzip(Data("not gzip at all, not at all".utf8)) == nil)
    }

    @Test func storedEncodingRoundTrips() {
        for size in [0, 1, 65_535, 65_536, 200_000] {
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 * 31) })
            #expect(ContentCoding.gunzip(ContentCoding.gzip(data)) == data)
        }
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(ContentCoding.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func largeInputsSpanSeveralStoredBlocks() {
        let encoded = ContentCoding.gzip(Data(count: 150_000))
        // header 10 + three blocks of 5 header bytes + data + trailer 8
        #expect(encoded.count == 10 + 3 * 5 + 150_000 + 8)
        #expect(encoded.prefix(2) == Data([0x1F, 0x8B]))
    }

    @Test func compressedBodiesAreStoredDecodedAndReplayedDecodedUnlessRawIsAskedFor() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try StubServer.httpbin()
        let raw = CurlTransport(configuration: .init(automaticDecompression: false))
        let recorder = try openCassette(directory.cassette(), mode: .once, upstream: raw)
        let live = try await recorder.send(HTTPRequest(url: server.url("/gzip")))
        try recorder.finish()
        server.stop()
        let liveBody = try #require(live.data)
        #expect(liveBody.starts(with: [0x1F, 0x8B]))
        let stored = try CassetteFile.load(directory.cassette()).interactions[0].response?.body
        #expect(stored?.contentEncoding == "gzip")
        #expect(stored?.inlineData == ContentCoding.gunzip(liveBody))
        #expect(try String(contentsOf: directory.cassette(), encoding: .utf8).contains(#""gzipped" : true"#) == false)
        #expect(try String(contentsOf: directory.cassette(), encoding: .utf8).contains(#""gzipped": true"#))
        let replayed = try await openCassette(directory.cassette(), mode: .replay).send(HTTPRequest(url: server.url("/gzip")))
        #expect(replayed.data == ContentCoding.gunzip(liveBody), "decoded, as the default live transport delivers it")
        var asSent = CassetteConfiguration()
        asSent.decodesContent = false
        let replayedRaw = try await openCassette(directory.cassette(), mode: .replay, configuration: asSent).send(HTTPRequest(url: server.url("/gzip")))
        #expect(replayedRaw.data == liveBody, "the gzip stream again, as the raw transport delivered it")
    }
}
