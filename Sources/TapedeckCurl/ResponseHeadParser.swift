import Foundation
import TapedeckCore

/// Assembles the final response head from the header lines libcurl hands over one at a time, skipping
/// informational (1xx) responses and redirects that will be followed. Pure logic, no I/O.
struct ResponseHeadParser {
    /// What a completed header block means.
    enum BlockOutcome: Equatable {
        /// A 1xx response or a redirect curl will follow: not the final head.
        case skipped
        /// The final response's head.
        case final(statusCode: Int, reasonPhrase: String, version: String, headers: HTTPHeaders)
    }

    private(set) var statusCode = 0
    private(set) var reasonPhrase = ""
    private(set) var version = ""
    private(set) var headers = HTTPHeaders()
    let followsRedirects: Bool

    init(followsRedirects: Bool) {
        self.followsRedirects = followsRedirects
    }

    static let followedRedirectCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// Feeds one raw header line (with or without its CRLF). Returns the outcome when the line ends a block.
    mutating func consume(line raw: Substring) -> BlockOutcome? {
        var line = raw
        while let last = line.last, last.isNewline { line.removeLast() }

        if line.isEmpty {
            guard statusCode != 0 else { return nil }
            let skip = (100..<200).contains(statusCode)
                || (followsRedirects && Self.followedRedirectCodes.contains(statusCode) && headers.contains("Location"))
            return skip ? .skipped : .final(statusCode: statusCode, reasonPhrase: reasonPhrase, version: version, headers: headers)
        }
        if line.hasPrefix("HTTP/") {
            startResponse(statusLine: line)
            return nil
        }
        if let first = line.first, first == " " || first == "\t", let lastIndex = headers.indices.last {
            // An obsolete folded continuation of the previous header.
            var field = headers[lastIndex]
            field.value += " " + line.trimmingCharacters(in: .whitespaces)
            var fields = Array(headers)
            fields[lastIndex] = field
            headers = HTTPHeaders(fields)
            return nil
        }
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        headers.add(name: name, value: value)
        return nil
    }

    private mutating func startResponse(statusLine: Substring) {
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        version = parts.first.map(String.init) ?? ""
        statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        reasonPhrase = parts.count > 2 ? parts[2].trimmingCharacters(in: .whitespaces) : ""
        headers = HTTPHeaders()
    }
}
