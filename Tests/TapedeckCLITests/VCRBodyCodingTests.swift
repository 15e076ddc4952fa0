import Foundation
import Testing
import TapedeckCassette
@testable import TapedeckCLICore

/// `VCRBodyCoding`: whether a VCR body is really encoded is read from its bytes. The compressed inputs were made by
/// Python's zlib and gzip modules (zlib 1.2.13) from `document`.
@Suite struct VCRBodyCodingTests {
    /// httpbin's `/deflate` answer begins like this; as raw DEFLATE, `{` opens a fixed-Huffman last block that ends
    /// a few bytes in, which once turned the text into a single byte.
    static let document = Data(#"{"deflated": true, "method": "GET", "origin": "127.0.0.1"}"#.utf8)
    static let zlib = Data(base64Encoded: "eJyrVkpJTctJLElNUbJSKCkqTdVRUMpNLcnIB/GV3F1DlIAC+UWZ6Zl5IAFDI3M9AyA0VKoFABXVEIo=")!
    static let rawDeflate = Data(base64Encoded: "q1ZKSU3LSSxJTVGyUigpKk3VUVDKTS3JyAfxldxdQ5SAAvlFmemZeSABQyNzPQMgNFSqBQA=")!
    static let gzip = Data(base64Encoded: "H4sIAAAAAAACA6tWSklNy0ksSU1RslIoKSpN1VFQyk0tycgH8ZXcXUOUgAL5RZnpmXkgAUMjcz0DIDRUqgUATgaFbjoAAAA=")!

    static func decide(_ data: Data, _ coding: String?) -> VCRBodyCoding.Outcome {
        VCRBodyCoding.decide(data, contentEncoding: coding)
    }

    @Test func textAnnouncedAsDeflateIsKeptWhole() {
        let outcome = Self.decide(Self.document, "deflate")
        #expect(outcome.verdict == .alreadyDecoded)
        #expect(outcome.body.inlineData == Self.document)
        #expect(outcome.dropsEncodingHeader)
    }

    @Test(arguments: [("zlib", zlib), ("raw", rawDeflate)])
    func deflateStreamsAreDecoded(kind: String, stream: Data) {
        let outcome = Self.decide(stream, "Deflate")
        #expect(outcome.verdict == .decoded, "\(kind)")
        #expect(outcome.body.inlineData == Self.document, "\(kind)")
        #expect(outcome.dropsEncodingHeader)
    }

    @Test func gzipIsDecodedAndKeepsItsHeaderEitherWay() {
        let compressed = Self.decide(Self.gzip, "gzip")
        #expect(compressed.verdict == .decoded && compressed.body.inlineData == Self.document && !compressed.dropsEncodingHeader)
        let decodedByClient = Self.decide(Self.document, "x-gzip")
        #expect(decodedByClient.verdict == .alreadyDecoded && decodedByClient.body.inlineData == Self.document)
        #expect(!decodedByClient.dropsEncodingHeader && decodedByClient.body.contentEncoding == nil)
    }

    @Test(arguments: [
        ("gzip", Data(gzip.dropLast(6)), "Content-Encoding is gzip but the body is not a valid gzip stream"),
        ("deflate", Data(zlib.dropLast(2)) + Data([0x00, 0x01]), "Content-Encoding is deflate but the body is neither"),
        ("deflate", Data(rawDeflate.prefix(20)), "Content-Encoding is deflate but the body is neither"),
        ("br", Data([0x1B, 0x03, 0x00, 0xF8, 0xA5, 0x40]), "Content-Encoding 'br' is not one Tapedeck decodes"),
        ("gzip, br", Data("text".utf8), "Content-Encoding 'gzip, br' is not one Tapedeck decodes"),
    ])
    func bodiesThatCannotBeDecodedAreKeptByteForByteAndSaidSo(coding: String, bytes: Data, reason: String) {
        let outcome = Self.decide(bytes, coding)
        #expect(outcome.body.inlineData == bytes)
        #expect(outcome.body.contentEncoding == nil && !outcome.dropsEncodingHeader)
        guard case .keptAsRecorded(let message) = outcome.verdict else {
            Issue.record("\(coding): \(outcome.verdict)")
            return
        }
        #expect(message.hasPrefix(reason))
        #expect(message.hasSuffix("the \(bytes.count) bytes are kept as recorded, with the header"))
    }

    @Test func aTextBodyUnderACodingTapedeckDoesNotDecodeWasDecodedByTheClient() {
        let outcome = Self.decide(Self.document, "br")
        #expect(outcome.verdict == .alreadyDecoded && outcome.dropsEncodingHeader && outcome.body.inlineData == Self.document)
    }

    @Test(arguments: [nil, "", "identity"])
    func noCodingLeavesTheBodyAlone(coding: String?) {
        #expect(Self.decide(Self.gzip, coding) == VCRBodyCoding.Outcome(body: CassetteBody(Self.gzip), dropsEncodingHeader: false, verdict: .notEncoded))
    }

    /// The whole import: the kept body and its note, with the interaction's path; Content-Length follows a decoded body.
    @Test func theImportListsKeptBodiesAndCorrectsContentLength() throws {
        let broken = Data(Self.gzip.dropLast(6)).base64EncodedString()
        let yaml = """
            interactions:
            - request: {method: GET, uri: 'http://127.0.0.1/deflate', body: null, headers: {}}
              response:
                status: {code: 200, message: OK}
                headers: {Content-Encoding: [deflate], Content-Length: ['40']}
                body: {string: '{"deflated": true, "method": "GET", "origin": "127.0.0.1"}'}
            - request: {method: GET, uri: 'http://127.0.0.1/gzip', body: null, headers: {}}
              response:
                status: {code: 200, message: OK}
                headers: {Content-Encoding: [gzip]}
                body: {string: !!binary '\(broken)'}
            version: 1
            """
        let imported = try VCRImport.cassette(fromYAML: yaml, file: "c.yaml", recordedAt: Date(timeIntervalSince1970: 0))
        let responses = imported.cassette.interactions.compactMap(\.response)
        #expect(responses[0].body.inlineData == Self.document)
        #expect(responses[0].headers["Content-Length"] == String(Self.document.count) && responses[0].headers["Content-Encoding"] == nil)
        #expect(responses[1].body.inlineData == Self.gzip.dropLast(6) && responses[1].headers["Content-Encoding"] == "gzip")
        #expect(imported.notes == [
            "interactions[1].response.body: Content-Encoding is gzip but the body is not a valid gzip stream: "
                + "the \(Self.gzip.count - 6) bytes are kept as recorded, with the header",
        ])
        #expect(imported.decompressedBodies == 0 && imported.bodiesDecodedByTheClient == 1)
    }
}
