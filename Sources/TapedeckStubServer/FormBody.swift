import Foundation
import TapedeckCore

/// Parses the two HTML form encodings a stub server sees: `application/x-www-form-urlencoded` and
/// `multipart/form-data`. Pure functions, no I/O.
public enum FormBody {
    /// One part of a multipart body.
    public struct Part: Sendable, Hashable {
        /// The part's headers.
        public var headers: HTTPHeaders
        /// The `name` of its `Content-Disposition`.
        public var name: String?
        /// The `filename` of its `Content-Disposition`, for file parts.
        public var fileName: String?
        /// Its `Content-Type`, when given.
        public var contentType: String?
        /// Its bytes.
        public var body: Data
    }

    /// Why a multipart body could not be parsed.
    public enum ParseError: Error, CustomStringConvertible, Equatable {
        /// The `Content-Type` has no `boundary` parameter.
        case missingBoundary(contentType: String)
        /// The body does not start with the boundary, or a part is cut short.
        case malformed(reason: String)

        public var description: String {
            switch self {
            case .missingBoundary(let contentType):
                return "multipart body has no boundary in its Content-Type \"\(contentType)\""
            case .malformed(let reason):
                return "malformed multipart body: \(reason)"
            }
        }
    }

    /// `a=1&b=x+y&c` as ordered name/value pairs, with `+` as space and percent-escapes decoded.
    public static func urlEncodedPairs(_ body: Data) -> [(name: String, value: String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The `boundary` parameter of a `multipart/…` content type.
    public static func boundary(inContentType contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pieces = parameter.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2, pieces[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            let value = pieces[1].trimmingCharacters(in: .whitespaces)
            return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }

    /// The parts of a `multipart/form-data` body.
    public static func multipartParts(_ body: Data, contentType: String) throws -> [Part] {
        guard let boundary = boundary(inContentType: contentType) else {
            throw ParseError.missingBoundary(contentType: contentType)
        }
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        guard let first = body.range(of: delimiter) else {
            throw ParseError.malformed(reason: "the boundary \"\(boundary)\" does not occur in the body")
        }
        var parts: [Part] = []
        var cursor = first.upperBound
        while true {
            if body[cursor...].starts(with: Data("--".utf8)) { return parts }  // closing delimiter
            guard body[cursor...].starts(with: crlf) else {
                throw ParseError.malformed(reason: "no line break after a boundary at byte \(cursor - body.startIndex)")
            }
            cursor += crlf.count
            guard let next = body.range(of: crlf + delimiter, in: cursor..<body.endIndex) else {
                throw ParseError.malformed(reason: "part \(parts.count + 1) is not closed by a boundary")
            }
            parts.append(try part(from: body[cursor..<next.lowerBound], index: parts.count + 1))
            cursor = next.upperBound
        }
    }

    private static func part(from bytes: Data, index: Int) throws -> Part {
        let separator = Data("\r\n\r\n".utf8)
        let headerEnd: Range<Data.Index>
        if bytes.starts(with: Data("\r\n".utf8)) {
            headerEnd = bytes.startIndex..<(bytes.startIndex + 2)  // no headers at all
        } else if let end = bytes.range(of: separator) {
            headerEnd = end
        } else {
            throw ParseError.malformed(reason: "part \(index) has no blank line after its headers")
        }
        var headers = HTTPHeaders()
        for line in String(decoding: bytes[bytes.startIndex..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let disposition = headers["Content-Disposition"].map(dispositionParameters) ?? [:]
        return Part(headers: headers, name: disposition["name"], fileName: disposition["filename"],
                    contentType: headers["Content-Type"], body: Data(bytes[headerEnd.upperBound...]))
    }

    /// `form-data; name="a"; filename="b.txt"` → `["name": "a", "filename": "b.txt"]`.
    static func dispositionParameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        for parameter in value.split(separator: ";").dropFirst() {
            let pieces = parameter.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            var text = pieces[1].trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
            result[pieces[0].trimmingCharacters(in: .whitespaces).lowercased()] = text
        }
        return result
    }
}
