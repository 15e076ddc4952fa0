import Foundation

/// The disk store's file format: one file per primary key holding every variant stored for it, header fields and
/// body together.
///
/// ```
/// "TDHC"            4 bytes, magic
/// version           UInt16, 1
/// payload length    UInt64
/// payload checksum  UInt64, FNV-1a 64 of the payload
/// payload:          key (string), variant count (UInt32), then per variant:
///                   status (Int64), reason (string), URL (string), method (string),
///                   request time, response time (Float64 bit patterns, UInt64),
///                   header count (UInt32) and name/value strings, Vary-ed request header count and strings,
///                   body (UInt64 length + bytes)
/// ```
/// Integers are little-endian; a string is a UInt32 byte count and UTF-8 bytes. A file that is short, long, of
/// another version, fails its checksum or is not valid UTF-8 where text is expected does not decode.
enum CacheFileFormat {
    static let magic: [UInt8] = Array("TDHC".utf8)
    static let version: UInt16 = 1
    static let headerLength = 4 + 2 + 8 + 8

    /// The file for `responses` stored under `key`.
    static func encode(key: String, _ responses: [CachedResponse]) -> Data {
        var payload = Writer()
        payload.string(key)
        payload.integer(UInt32(responses.count))
        for response in responses {
            payload.integer(UInt64(bitPattern: Int64(response.statusCode)))
            payload.string(response.reasonPhrase)
            payload.string(response.url.absoluteString)
            payload.string(response.requestMethod.rawValue)
            payload.integer(response.requestTime.timeIntervalSince1970.bitPattern)
            payload.integer(response.responseTime.timeIntervalSince1970.bitPattern)
            payload.headers(response.headers)
            payload.headers(response.varyingRequestHeaders)
            payload.integer(UInt64(response.body.count))
            payload.bytes.append(contentsOf: response.body)
        }
        var file = Writer()
        file.bytes.append(contentsOf: magic)
        file.integer(version)
        file.integer(UInt64(payload.bytes.count))
        file.integer(checksum(payload.bytes))
        file.bytes.append(payload.bytes)
        return file.bytes
    }

    /// The key and variants in `file`, or `nil` when it is not an intact file of this format.
    static func decode(_ file: Data) -> (key: String, responses: [CachedResponse])? {
        var header = Reader(file)
        guard let magicBytes = header.data(count: magic.count), Array(magicBytes) == magic,
              header.integer(UInt16.self) == version,
              let length = header.integer(UInt64.self), let sum = header.integer(UInt64.self),
              UInt64(file.count - headerLength) == length
        else { return nil }
        let payload = file.subdata(in: (file.startIndex + headerLength)..<file.endIndex)
        guard checksum(payload) == sum else { return nil }
        var reader = Reader(payload)
        guard let key = reader.string(), let count = reader.integer(UInt32.self) else { return nil }
        var responses: [CachedResponse] = []
        for _ in 0..<count {
            guard let status = reader.integer(UInt64.self), let reason = reader.string(),
                  let urlText = reader.string(), let url = URL(string: urlText), let method = reader.string(),
                  let requestTime = reader.integer(UInt64.self), let responseTime = reader.integer(UInt64.self),
                  let headers = reader.headers(), let varying = reader.headers(),
                  let bodyLength = reader.integer(UInt64.self), bodyLength <= UInt64(Int.max),
                  let body = reader.data(count: Int(bodyLength))
            else { return nil }
            responses.append(CachedResponse(
                statusCode: Int(Int64(bitPattern: status)), reasonPhrase: reason, headers: headers, body: body, url: url,
                requestMethod: HTTPMethod(method),
                requestTime: Date(timeIntervalSince1970: Double(bitPattern: requestTime)),
                responseTime: Date(timeIntervalSince1970: Double(bitPattern: responseTime)),
                varyingRequestHeaders: varying))
        }
        return reader.isAtEnd ? (key, responses) : nil
    }

    /// FNV-1a, 64 bits.
    static func checksum(_ bytes: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    private struct Writer {
        var bytes = Data()

        mutating func integer<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ text: String) {
            integer(UInt32(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        }

        mutating func headers(_ headers: HTTPHeaders) {
            integer(UInt32(headers.count))
            for field in headers {
                string(field.name)
                string(field.value)
            }
        }
    }

    private struct Reader {
        let data: Data
        var offset: Int

        init(_ data: Data) {
            self.data = data
            offset = data.startIndex
        }

        var isAtEnd: Bool { offset == data.endIndex }

        mutating func data(count: Int) -> Data? {
            guard count >= 0, data.endIndex - offset >= count else { return nil }
            defer { offset += count }
            return data.subdata(in: offset..<(offset + count))
        }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard data.endIndex - offset >= size else { return nil }
            var value: T = 0
            for position in 0..<size {
                value |= T(data[offset + position]) << (8 * position)
            }
            offset += size
            return value
        }

        mutating func string() -> String? {
            guard let length = integer(UInt32.self), let bytes = data(count: Int(length)) else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }

        mutating func headers() -> HTTPHeaders? {
            guard let count = integer(UInt32.self) else { return nil }
            var fields: [HTTPHeaders.Field] = []
            for _ in 0..<count {
                guard let name = string(), let value = string() else { return nil }
                fields.append(HTTPHeaders.Field(name: name, value: value))
            }
            return HTTPHeaders(fields)
        }
    }
}
