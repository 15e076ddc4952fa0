import Foundation

/// Splits a `multipart/*` body (RFC 2046, as `multipart/form-data` uses it) into its parts. Pure functions, no I/O:
/// the stub server reads form uploads with it and the cassette matcher compares multipart bodies part by part.
///
/// The boundary comes from the `Content-Type` (``boundary(inContentType:)``) or, for a body whose type is unknown,
/// from its first line (``leadingBoundary(of:)``). A part's headers end at the first blank line; a part may have no
/// headers at all. Text before the first boundary (the preamble) and after the closing one is ignored.
///
/// ```swift
/// let contentType = "multipart/form-data; boundary=XyZ"
/// let body = Data("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--\r\n".utf8)
/// let parts = try MultipartParser.parts(of: body, contentType: contentType)
/// parts[0].name  // "a"
/// ```
public enum MultipartParser {
    /// Why a multipart body could not be parsed.
    public enum ParseError: Error, CustomStringConvertible, Equatable {
        /// The `Content-Type` has no (non-empty) `boundary` parameter.
        case missingBoundary(contentType: String)
        /// The body does not contain the boundary, or a part is cut short.
        case malformed(reason: String)

        /// What is wrong, in a sentence.
        public var description: String {
            switch self {
            case .missingBoundary(let contentType):
                return "multipart body has no boundary in its Content-Type \"\(contentType)\""
            case .malformed(let reason):
                return "malformed multipart body: \(reason)"
            }
        }
    }

    /// The `boundary` parameter of a `multipart/…` content type, unquoted; `nil` when there is none or it is empty.
    public static func boundary(inContentType contentType: String) -> String? {
        guard let boundary = HTTPFieldSyntax.parameters(of: contentType)["boundary"], !boundary.isEmpty else { return nil }
        return boundary
    }

    /// The boundary a body starts with (`--BOUNDARY` and a line break), for bodies whose `Content-Type` is unknown.
    public static func leadingBoundary(of body: Data) -> String? {
        guard body.starts(with: Data("--".utf8)), let lineEnd = body.firstRange(of: Data("\r\n".utf8)) else { return nil }
        let boundary = String(decoding: body[body.startIndex + 2..<lineEnd.lowerBound], as: UTF8.self)
        return boundary.isEmpty ? nil : boundary
    }

    /// The parts of `body`, with the boundary named by `contentType`.
    public static func parts(of body: Data, contentType: String) throws(ParseError) -> [MultipartPart] {
        guard let boundary = boundary(inContentType: contentType) else {
            throw ParseError.missingBoundary(contentType: contentType)
        }
        return try parts(of: body, boundary: boundary)
    }

    /// The parts of `body`, delimited by `--boundary` lines and closed by `--boundary--`.
    public static func parts(of body: Data, boundary: String) throws(ParseError) -> [MultipartPart] {
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        guard !boundary.isEmpty, let first = body.firstRange(of: delimiter) else {
            throw ParseError.malformed(reason: "the boundary \"\(boundary)\" does not occur in the body")
        }
        var parts: [MultipartPart] = []
        var cursor = first.upperBound
        while true {
            if body[cursor...].starts(with: Data("--".utf8)) { return parts }  // closing delimiter
            guard body[cursor...].starts(with: crlf) else {
                throw ParseError.malformed(reason: "no line break after a boundary at byte \(cursor - body.startIndex)")
            }
            cursor += crlf.count
            guard let next = body.firstRange(of: crlf + delimiter, in: cursor..<body.endIndex) else {
                throw ParseError.malformed(reason: "part \(parts.count + 1) is not closed by a boundary")
            }
            parts.append(try part(from: body[cursor..<next.lowerBound], index: parts.count + 1))
            cursor = next.upperBound
        }
    }

    private static func part(from bytes: Data, index: Int) throws(ParseError) -> MultipartPart {
        let headerEnd: Range<Data.Index>
        if bytes.starts(with: Data("\r\n".utf8)) {
            headerEnd = bytes.startIndex..<(bytes.startIndex + 2)  // no headers at all
        } else if let end = bytes.firstRange(of: Data("\r\n\r\n".utf8)) {
            headerEnd = end
        } else {
            throw ParseError.malformed(reason: "part \(index) has no blank line after its headers")
        }
        var headers = HTTPHeaders()
        for line in String(decoding: bytes[bytes.startIndex..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(name: line[..<colon].trimmingCharacters(in: .whitespaces),
                        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return MultipartPart(headers: headers, body: Data(bytes[headerEnd.upperBound...]))
    }
}
