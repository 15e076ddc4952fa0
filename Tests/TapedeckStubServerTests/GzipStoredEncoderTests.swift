import Foundation
import Testing
@testable import TapedeckStubServer

@Suite struct GzipStoredEncoderTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func largeInputsSpanSeveralStoredBlocks() {
        let input = Data(count: 150_000)
        let encoded = GzipStoredEncoder.encode(input)
        // header 10 + three blocks of 5 header bytes + data + trailer 8
        #expect(encoded.count == 10 + 3 * 5 + 150_000 + 8)
        #expect(encoded.prefix(2) == Data([0x1f, 0x8b]))
    }
}
