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
    mutating func consume(line raw: UnsafeRawBufferPointer) -> BlockOutcome? {
        var line = raw[...]
        while let last = line.last, last == .lineFeed || last == .carriageReturn { line = line.dropLast() }

        if line.isEmpty {
            guard statusCode != 0 else { return nil }
            return (100..<200).contains(statusCode) ? .skipped : .final(statusCode: statusCode, reasonPhrase: reasonPhrase, version: version, headers: headers)
        }
        if line.starts(with: "HTTP/".utf8) {
            startResponse(statusLine: line)
            return nil
        }
        if let first = line.first, HTTPFieldSyntax.isWhitespace(first), let lastIndex = headers.indices.last {
            // An obsolete folded continuation of the previous header.
            var fields = Array(headers)
            fields[lastIndex].value += " " + Self.string(HTTPFieldSyntax.trimmingWhitespace(line))
            headers = HTTPHeaders(fields)
            return nil
        }
        guard let colon = line.firstIndex(of: .colon) else { return nil }
        let name = Self.string(line[..<colon])
        let value = Self.string(HTTPFieldSyntax.trimmingWhitespace(line[(colon + 1)...]))
        headers.add(name: name, value: value)
        return nil
    }

    /// Feeds one header line given as text (tests and callers that already hold a string).
    mutating func consume(line: Substring) -> BlockOutcome? {
        var text = String(line)
        return text.withUTF8 { consume(line: UnsafeRawBufferPointer($0)) }
    }

    private typealias Bytes = Slice<UnsafeRawBufferPointer>

    /// `HTTP/1.1 200 OK`: version, code, and the rest (trimmed) as the reason; HTTP/2 lines have no reason.
    private mutating func startResponse(statusLine line: Bytes) {
        let versionEnd = line.firstIndex(where: HTTPFieldSyntax.isWhitespace) ?? line.endIndex
        version = Self.string(line[..<versionEnd])
        var rest = HTTPFieldSyntax.trimmingWhitespace(line[versionEnd...])
        let codeEnd = rest.firstIndex(where: HTTPFieldSyntax.isWhitespace) ?? rest.endIndex
        statusCode = Self.decimal(rest[..<codeEnd]) ?? 0
        rest = HTTPFieldSyntax.trimmingWhitespace(rest[codeEnd...])
        reasonPhrase = Self.string(rest)
        headers = HTTPHeaders()
    }

    private static func decimal(_ bytes: Bytes) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func string(_ bytes: Bytes) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes), as: UTF8.self)
    }
}

private extension UInt8 {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let colon = UInt8(ascii: ":")
}
