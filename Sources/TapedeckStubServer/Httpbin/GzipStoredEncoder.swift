import Foundation

/// Writes valid gzip (RFC 1952) without compressing: the data goes into deflate "stored" blocks. Enough for a stub
/// to serve `Content-Encoding: gzip` that every client decodes, with no zlib dependency.
enum GzipStoredEncoder {
    static func encode(_ data: Data) -> Data {
        var output = Data([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff])
        var offset = data.startIndex
        repeat {
            let count = min(65_535, data.endIndex - offset)
            let isLast = offset + count == data.endIndex
            output.append(isLast ? 0x01 : 0x00)
            output.append(littleEndian: UInt16(count))
            output.append(littleEndian: ~UInt16(count))
            output.append(data[offset..<(offset + count)])
            offset += count
        } while offset < data.endIndex
        output.append(littleEndian: CRC32.checksum(data))
        output.append(littleEndian: UInt32(truncatingIfNeeded: data.count))
        return output
    }
}

/// CRC-32 (IEEE 802.3), as gzip uses.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Data {
    fileprivate mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
