import Testing
@testable import TapedeckCore

/// ASCII lower-casing (header names, schemes, cookie attributes, authentication schemes): the same as Foundation's
/// `lowercased()` on ASCII text, and only ASCII capitals changed in any other.
@Suite struct ASCIITests {
    @Test(arguments: ["", "digest", "Digest", "CONTENT-TYPE", "Set-Cookie: A=B; Path=/", "x-Trace-ID_42", "@[`{"])
    func lowersASCIITextAsFoundationDoes(_ text: String) {
        #expect(text.asciiLowercased == text.lowercased())
    }

    @Test func leavesEveryOtherCharacterAsItIs() {
        #expect("İSTANBUL Ä ÉTÉ ß".asciiLowercased == "İstanbul Ä ÉtÉ ß")
        for byte in UInt8.min...UInt8.max {
            let expected: UInt8 = (65...90).contains(byte) ? byte + 32 : byte
            #expect(byte.asciiLowercased == expected)
        }
    }
}
