import Foundation

/// `gzip` bodies (RFC 1952): decoded to store them readable, encoded again (deflate "stored" blocks, fixed header)
/// on replay. Used when a transport delivers a body still compressed (e.g. `CurlTransport` with
/// `automaticDecompression: false`); bodies the transport already decoded are stored as delivered.
package enum ContentCoding {
    /// Whether `body` is a gzip stream its `Content-Encoding` announces.
    static func isGzip(_ body: Data, contentEncoding: String?) -> Bool {
        guard let coding = contentEncoding?.lowercased().trimmingCharacters(in: .whitespaces), coding == "gzip" || coding == "x-gzip" else { return false }
        return body.count >= 18 && body[body.startIndex] == 0x1F && body[body.startIndex + 1] == 0x8B
    }

    /// The decoded bytes of a gzip stream (one member), or `nil` when it is malformed or its checksum fails.
    package static func gunzip(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
        let flags = bytes[3]
        var offset = 10
        if flags & 0x04 != 0 {
            guard offset + 2 <= bytes.count else { return nil }
            offset += 2 + (Int(bytes[offset]) | Int(bytes[offset + 1]) << 8)
        }
        for flag in [UInt8(0x08), 0x10] where flags & flag != 0 {
            while offset < bytes.count, bytes[offset] != 0 { offset += 1 }
            offset += 1
        }
        if flags & 0x02 != 0 { offset += 2 }
        guard offset < bytes.count, let (output, consumed) = Inflate.decode(Array(bytes[offset...])) else { return nil }
        let trailer = offset + consumed
        guard trailer + 8 <= bytes.count else { return nil }
        let crc = UInt32(bytes[trailer]) | UInt32(bytes[trailer + 1]) << 8 | UInt32(bytes[trailer + 2]) << 16 | UInt32(bytes[trailer + 3]) << 24
        let decoded = Data(output)
        return crc == crc32(decoded) ? decoded : nil
    }

    /// The decoded bytes of a zlib stream whose Adler-32 checksum holds, else `nil`.
    package static func inflateZlib(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        guard bytes.count >= 6, bytes[0] & 0x0F == 8, (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0, bytes[1] & 0x20 == 0,
              let (output, consumed) = Inflate.decode(Array(bytes[2...])), 2 + consumed + 4 <= bytes.count else { return nil }
        let trailer = 2 + consumed
        let expected = UInt32(bytes[trailer]) << 24 | UInt32(bytes[trailer + 1]) << 16 | UInt32(bytes[trailer + 2]) << 8 | UInt32(bytes[trailer + 3])
        return adler32(output) == expected ? Data(output) : nil
    }

    /// The decoded bytes of a raw DEFLATE stream that ends at the last byte, else `nil`. A raw stream has no
    /// checksum; a stream that ends early is taken for what it usually is, something else (text starting with `{`
    /// reads as a short fixed-Huffman block).
    package static func inflateRaw(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        guard let (output, consumed) = Inflate.decode(bytes), consumed == bytes.count else { return nil }
        return Data(output)
    }

    /// The Adler-32 checksum of a zlib stream's decoded bytes.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// A gzip stream of `data` in stored blocks, with no file name and modification time 0: the same bytes always.
    /// Valid gzip that every client decodes, with no zlib: what replay and the stub server send for `gzip`.
    package static func gzip(_ data: Data) -> Data {
        var output = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF])
        var offset = data.startIndex
        repeat {
            let count = min(65_535, data.endIndex - offset)
            output.append(offset + count == data.endIndex ? 1 : 0)
            output.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)])
            output.append(data[offset..<(offset + count)])
            offset += count
        } while offset < data.endIndex
        for value in [crc32(data), UInt32(truncatingIfNeeded: data.count)] {
            output.append(contentsOf: [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)])
        }
        return output
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 (IEEE 802.3), as gzip's trailer holds it.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
