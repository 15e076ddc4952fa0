import Testing
import TapedeckCore

@Suite struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.add(name: "x-a", value: "2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "X-A") == ["1", "2"])
        #expect(headers.map(\.name) == ["Content-Type", "X-A", "x-a"])
    }

    @Test func settingReplacesEveryFieldOfThatNameInPlace() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3")])
        headers["A"] = "9"
        #expect(headers.map { "\($0.name)=\($0.value)" } == ["A=9", "B=2"])
        headers["b"] = nil
        #expect(headers.map(\.name) == ["A"])
    }

    @Test func nonLetterBytesAreNotFoldedTogether() {
        // '@' (0x40) and '`' (0x60) differ only in the 0x20 bit but are not letters.
        let headers: HTTPHeaders = ["X@": "1"]
        #expect(headers["X`"] == nil)
        #expect(headers["x@"] == "1")
    }
}

@Suite struct TransferProgressTests {
    @Test func fractionIsClampedAndEmptyIsComplete() {
        #expect(TransferProgress(completed: 5, total: 10).fractionCompleted == 0.5)
        #expect(TransferProgress(completed: 11, total: 10).fractionCompleted == 1)
        #expect(TransferProgress(completed: 0, total: 0).fractionCompleted == 1)
        #expect(TransferProgress(completed: 3, total: nil).fractionCompleted == nil)
    }
}
