import TapedeckCore

/// Assembles the response head from the header lines libcurl hands over one at a time, skipping informational
/// (1xx) responses (libcurl never follows a redirect here: a 3xx is the head, and the session above follows it). Pure logic, no I/O; it works on the raw
/// bytes and makes a `String` only for each name and value it keeps.
struct ResponseHeadParser {
    /// What a completed header block means.
    enum BlockOutcome: Equatable {
        /// A 1xx response: not the final head.
        case skipped
        /// The final response's head.
        case final(statusCode: Int, reasonPhrase: String, version: String, headers: HTTPHeaders)
    }

    private(set) var statusCode = 0
    private(set) var reasonPhrase = ""
    private(set) var version = ""
    private(set) var headers = HTTPHeaders()
    /// Feeds one raw header line (with or without its CRLF). Returns the outcome when the line ends a block.
    ///
    /// Works on integer offsets into the line's bytes (libcurl calls this for every header of every response, so it
    /// stays free of generic collection code).
    mutating func consume(line raw: UnsafeRawBufferPointer) -> BlockOutcome? {
        var end = raw.count
        while end > 0, raw[end - 1] == .lineFeed || raw[end - 1] == .carriageReturn { end -= 1 }

        if end == 0 {
            guard statusCode != 0 else { return nil }
            return (100..<200).contains(statusCode) ? .skipped : .final(statusCode: statusCode, reasonPhrase: reasonPhrase, version: version, headers: headers)
        }
        if end >= 5, raw[0] == UInt8(ascii: "H"), raw[1] == UInt8(ascii: "T"), raw[2] == UInt8(ascii: "T"),
           raw[3] == UInt8(ascii: "P"), raw[4] == UInt8(ascii: "/") {
            startResponse(statusLine: raw, end: end)
            return nil
        }
        if HTTPFieldSyntax.isWhitespace(raw[0]), let lastIndex = headers.indices.last {
            // An obsolete folded continuation of the previous header.
            var fields = Array(headers)
            fields[lastIndex].value += " " + Self.string(raw, Self.trimmed(raw, 0..<end))
            headers = HTTPHeaders(fields)
            return nil
        }
        guard let colon = Self.firstIndex(of: .colon, in: raw, 0..<end) else { return nil }
        headers.add(name: Self.string(raw, 0..<colon), value: Self.string(raw, Self.trimmed(raw, (colon + 1)..<end)))
        return nil
    }

    /// Feeds one header line given as text (tests and callers that already hold a string).
    mutating func consume(line: Substring) -> BlockOutcome? {
        var text = String(line)
        return text.withUTF8 { consume(line: UnsafeRawBufferPointer($0)) }
    }

    /// `HTTP/1.1 200 OK`: version, code, and the rest (trimmed) as the reason; HTTP/2 lines have no reason.
    private mutating func startResponse(statusLine line: UnsafeRawBufferPointer, end: Int) {
        let versionEnd = Self.firstWhitespace(in: line, 0..<end)
        version = Self.string(line, 0..<versionEnd)
        let rest = Self.trimmed(line, versionEnd..<end)
        let codeEnd = Self.firstWhitespace(in: line, rest)
        statusCode = Self.decimal(line, rest.lowerBound..<codeEnd) ?? 0
        reasonPhrase = Self.string(line, Self.trimmed(line, codeEnd..<rest.upperBound))
        headers = HTTPHeaders()
    }

    private static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func firstWhitespace(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int {
        var index = range.lowerBound
        while index < range.upperBound, !HTTPFieldSyntax.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// `range` without leading and trailing optional whitespace (empty, at its end, when that is all there is).
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, HTTPFieldSyntax.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, HTTPFieldSyntax.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func decimal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 9 else { return nil }
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func string(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

private extension UInt8 {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let colon = UInt8(ascii: ":")
}
