import Crypto
import Foundation
import TapedeckStubServer

/// The SHA-256 of `length` bytes of the stub server's generated body (`StubBody.generated`), as lowercase hex,
/// computed in pieces so a body of hundreds of MiB costs no memory.
///
/// ```swift
/// #expect(try fileSHA256(destination) == generatedSHA256(length: 256 << 20))
/// ```
public func generatedSHA256(length: Int64) -> String {
    var hasher = SHA256()
    var offset: Int64 = 0
    while offset < length {
        let count = Int(min(4 << 20, length - offset))
        hasher.update(data: StubBody.generatedBytes(from: offset, count: count))
        offset += Int64(count)
    }
    return hexadecimal(hasher.finalize())
}

/// The SHA-256 of a file, as lowercase hex, read in pieces.
public func fileSHA256(_ url: URL) throws -> String {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var hasher = SHA256()
    while let chunk = try handle.read(upToCount: 4 << 20), !chunk.isEmpty {
        hasher.update(data: chunk)
    }
    return hexadecimal(hasher.finalize())
}

private func hexadecimal(_ digest: SHA256.Digest) -> String {
    digest.map { String(format: "%02x", $0) }.joined()
}
