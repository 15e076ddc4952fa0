import Foundation
import TapedeckCore
import TapedeckTestSupport
import Testing
@testable import TapedeckSession

/// The Digest scheme's own MD5, SHA-256 and SHA-512/256 against the published test vectors and Python's hashlib.
struct BlockHashTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.lowercaseHex }

    @Test func publishedVectors() {
        // RFC 1321 appendix A.5.
        #expect(Self.hex(MD5Hash.hash([])) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Self.hex(MD5Hash.hash(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(Self.hex(MD5Hash.hash(Array(String(repeating: "1234567890", count: 8).utf8)))
            == "57edf4a22be3c955ac49da2e2107b67a")
        // FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA512_256.pdf").
        #expect(Self.hex(SHA256Hash.hash(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256Hash.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var short = SHA512Hash.sha512_256()
        short.update(Array("abc".utf8))
        #expect(Self.hex(short.finalize()) == "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")
        var long = SHA512Hash.sha512_256()
        long.update(Array(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
            + "mnopqrstnopqrstu").utf8))
        #expect(Self.hex(long.finalize()) == "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a")
        var full = SHA512Hash.sha512()
        full.update(Array("abc".utf8))
        #expect(Self.hex(full.finalize()) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    /// Messages of every length around the padding boundaries (55/56/64 and 111/112/128 bytes), fed whole and in
    /// uneven pieces, and one of 1 MiB, hashed here and by hashlib.
    @Test func agreesWithPythonAcrossPaddingBoundariesAndPieces() async throws {
        let python = try #require(ExternalCommand.find("python3"))
        var generator = SplitMix64(seed: 0x7A9E)
        var messages = (0...300).map { length in (0..<length).map { _ in generator.nextByte() } }
        messages.append((0..<(1 << 16) + 3).map { _ in generator.nextByte() })
        let script = """
            import hashlib, sys
            for line in sys.stdin.read().split():
                data = bytes.fromhex(line[1:])
                print(hashlib.md5(data).hexdigest(), hashlib.sha256(data).hexdigest(),
                      hashlib.new("sha512_256", data).hexdigest(), hashlib.sha512(data).hexdigest())
            """
        let input = messages.map { "x" + Self.hex($0) }.joined(separator: "\n")
        let output = try await ExternalCommand.run(python, ["-c", script], input: Data(input.utf8))
        #expect(output.status == 0, "python3 failed: \(output.standardError)")
        let lines = String(decoding: output.standardOutput, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == messages.count)
        for (message, line) in zip(messages, lines) {
            let expected = line.split(separator: " ").map(String.init)
            let piece = message.count % 7 + 1
            var md5 = MD5Hash(), sha256 = SHA256Hash(), sha512_256 = SHA512Hash.sha512_256(), sha512 = SHA512Hash.sha512()
            for start in stride(from: 0, to: message.count, by: piece) {
                let slice = message[start..<min(start + piece, message.count)]
                md5.update(slice)
                sha256.update(slice)
                sha512_256.update(slice)
                sha512.update(slice)
            }
            let mine = [md5.finalize(), sha256.finalize(), sha512_256.finalize(), sha512.finalize()].map(Self.hex)
            #expect(mine == expected, "length \(message.count), pieces of \(piece)")
            #expect(Self.hex(SHA256Hash.hash(message)) == expected[1], "length \(message.count), whole")
        }
    }

    @Test func aFileIsHashedAsItsBytes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("blockhash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var generator = SplitMix64(seed: 42)
        // Just over the 1 MiB read size, so the file is hashed in two reads. One algorithm: the file path is the same
        // for all (the others are checked against Python above), and a debug build hashes under 1 MiB a second, on
        // one of the suite's two cooperative threads.
        let bytes = Data((0..<(1 << 20) + 17).map { _ in generator.nextByte() })
        try bytes.write(to: file)
        #expect(DigestAlgorithm.md5.hexDigest(contentsOf: file) == DigestAlgorithm.md5.hexDigest(bytes))
        #expect(DigestAlgorithm.md5.hexDigest(contentsOf: file.appendingPathExtension("missing")) == nil)
    }
}

extension SplitMix64 {
    mutating func nextByte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
