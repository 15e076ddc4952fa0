import Foundation

/// One part of a multipart form: its header lines and where its body comes from.
struct MultipartBodyPart: Sendable {
    /// Where a part's body bytes come from.
    enum Content: Sendable {
        case data(Data)
        case file(URL)
        case stream(HTTPBodyStream)
    }

    var headers: HTTPHeaders
    var content: Content
    /// The body's length in bytes, as declared when the part was appended.
    var length: Int64
}

/// A contiguous piece of an encoded multipart body.
enum MultipartSegment: Sendable {
    /// Bytes already in memory: boundaries, header blocks, data bodies.
    case bytes(Data)
    /// `length` bytes read from a file.
    case file(URL, length: Int64)
    /// `length` bytes pulled from a stream.
    case stream(HTTPBodyStream, length: Int64)

    var length: Int64 {
        switch self {
        case .bytes(let data): return Int64(data.count)
        case .file(_, let length), .stream(_, let length): return length
        }
    }
}

/// AFNetworking's multipart wire format, as a list of segments.
enum MultipartEncoding {
    static let crlf = "\r\n"

    /// The segments of the whole body: per part its opening boundary and header block, then its body; then the
    /// closing boundary. An empty form has no segments.
    static func segments(for parts: [MultipartBodyPart], boundary: String) -> [MultipartSegment] {
        guard !parts.isEmpty else { return [] }
        var segments: [MultipartSegment] = []
        segments.reserveCapacity(parts.count * 2 + 1)
        for (index, part) in parts.enumerated() {
            let opening = index == 0 ? "--\(boundary)\(crlf)" : "\(crlf)--\(boundary)\(crlf)"
            segments.append(.bytes(Data((opening + headerBlock(part.headers)).utf8)))
            switch part.content {
            case .data(let data):
                if !data.isEmpty { segments.append(.bytes(data)) }
            case .file(let url):
                segments.append(.file(url, length: part.length))
            case .stream(let stream):
                segments.append(.stream(stream, length: part.length))
            }
        }
        segments.append(.bytes(Data("\(crlf)--\(boundary)--\(crlf)".utf8)))
        return segments
    }

    /// `Name: value\r\n` per header, then the empty line.
    static func headerBlock(_ headers: HTTPHeaders) -> String {
        headers.map { "\($0.name): \($0.value)\(crlf)" }.joined() + crlf
    }
}
