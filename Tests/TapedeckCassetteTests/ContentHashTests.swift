import Foundation
import Testing
@testable import TapedeckCassette

/// XXH64 against digests from the reference implementation (Python's `xxhash.xxh64(…, seed=0)`).
@Suite struct ContentHashTests {
    static let vectors: [(Data, String)] = [
        (Data(), "ef46db3751d8e999"),
        (Data("a".utf8), "d24ec4f1a98c6e5b"),
        (Data("abc".utf8), "44bc2cf5ad770999"),
        (Data("0123456789abcdef0123456789abcdef".utf8), "642a94958e71e6c5"),
        (Data((0..<17).flatMap { _ in (0...255).map(UInt8.init) }), "d79c468835b15209"),
        (Data(repeating: UInt8(ascii: "x"), count: 31), "60dd0d01083b99f0"),
        (Data(repeating: UInt8(ascii: "y"), count: 32), "64da1f1d3495ce66"),
        (Data(repeating: UInt8(ascii: "z"), count: 33), "c5241253c64e0268"),
    ]

    @Test(arguments: vectors)
    func matchesTheReferenceDigest(data: Data, expected: String) {
        #expect(ContentHash.of(data) == expected)
    }

    @Test(arguments: [1, 3, 7, 31, 32, 33, 100])
    func chunkingDoesNotChangeTheDigest(chunkSize: Int) {
        let data = Data((0..<17).flatMap { _ in (0...255).map(UInt8.init) })
        var hash = ContentHash()
        var offset = 0
        while offset < data.count {
            let end = min(offset + chunkSize, data.count)
            hash.update(data[offset..<end])
            offset = end
        }
        #expect(hash.hexDigest == "d79c468835b15209")
    }
}
