/// The media type of a `Content-Type` value (RFC 9110 §8.3.1), the part that says what the body is.
public enum MediaType {
    /// The type and subtype of `contentType`, lowercased, without parameters or the whitespace around them; `""` when
    /// nothing comes before the first `;`.
    ///
    /// ```swift
    /// MediaType.essence(of: "Application/JSON; charset=utf-8")  // "application/json"
    /// ```
    public static func essence(of contentType: String) -> String {
        if let fast = contentType.utf8.withContiguousStorageIfAvailable(asciiEssence) ?? nil { return fast }
        let end = contentType.firstIndex(of: ";") ?? contentType.endIndex
        let type = contentType[..<end].drop(while: \.isWhitespace)
        let last = type.lastIndex { !$0.isWhitespace }
        return last.map { type[...$0].lowercased() } ?? ""
    }

    /// The essence of an ASCII value, worked out on its bytes (every `Content-Type` in practice); `nil` when the
    /// value holds other bytes, whose whitespace and case the `Character` rules decide.
    private static func asciiEssence(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0, end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        guard !bytes[..<end].contains(where: { $0 >= 0x80 }) else { return nil }
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return String(unsafeUninitializedCapacity: end - start) { buffer in
            for index in start..<end {
                let byte = bytes[index]
                buffer[index - start] = byte.asciiLowercased
            }
            return end - start
        }
    }

    /// Tab, line feed, vertical tab, form feed, carriage return and space: `Character.isWhitespace` below 0x80.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
