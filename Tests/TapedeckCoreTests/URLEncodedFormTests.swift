import Foundation
import Testing
import TapedeckCore

@Suite struct URLEncodedFormTests {
    @Test func urlEncodedPairsDecodePlusAndEscapes() {
        let pairs = URLEncodedForm.pairs(Data("a=1&b=x+y&c&d=%2F%26&a=2".utf8))
        #expect(pairs.map(\.name) == ["a", "b", "c", "d", "a"])
        #expect(pairs.map(\.value) == ["1", "x y", "", "/&", "2"])
    }

    @Test func emptyPairsAreSkippedAndBadEscapesKept() {
        let pairs = URLEncodedForm.pairs(Data("a=1&&b=%zz&=v".utf8))
        #expect(pairs.map(\.name) == ["a", "b", ""])
        #expect(pairs.map(\.value) == ["1", "%zz", "v"])
        #expect(URLEncodedForm.decode("plain") == "plain")
    }
}
