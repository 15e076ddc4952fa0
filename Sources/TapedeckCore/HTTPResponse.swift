import Foundation

/// The status line and header fields of a response, delivered as soon as they have arrived.
public struct HTTPResponseHead: Hashable, Sendable {
    /// The status code, e.g. `200`.
    public var statusCode: Int
    /// The reason phrase, e.g. `"OK"` (empty over HTTP/2).
    public var reasonPhrase: String
    /// The protocol version, e.g. `"HTTP/1.1"` or `"HTTP/2"`.
    public var version: String
    /// Header fields in the order they arrived.
    public var headers: HTTPHeaders
    /// The URL that answered (after any redirects).
    public var url: URL

    /// Creates a response head.
    public init(statusCode: Int, reasonPhrase: String = "", version: String = "HTTP/1.1", headers: HTTPHeaders = [:], url: URL) {
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase
        self.version = version
        self.headers = headers
        self.url = url
    }

    /// The `Content-Length` header as a number, when present and valid.
    public var expectedContentLength: Int64? { headers.contentLength }

    /// The MIME type of `Content-Type`, lowercased and without parameters (e.g. `application/json`): its
    /// ``MediaType/essence(of:)``.
    public var mimeType: String? {
        headers["Content-Type"].map(MediaType.essence)
    }
}

/// Where a response's body ended up.
public enum HTTPResponseBody: Hashable, Sendable {
    /// In memory.
    case data(Data)
    /// In this file.
    case file(URL, byteCount: Int64)
    /// Delivered as stream events; this many bytes in all.
    case streamed(byteCount: Int64)

    /// The body's size in bytes.
    public var byteCount: Int64 {
        switch self {
        case .data(let data): return Int64(data.count)
        case .file(_, let byteCount), .streamed(let byteCount): return byteCount
        }
    }
}

/// A complete response: head, body, timings, and for HTTPS the server's certificate chain.
public struct HTTPResponse: Hashable, Sendable {
    /// Status line and headers.
    public var head: HTTPResponseHead
    /// Where the body is.
    public var body: HTTPResponseBody
    /// How the transfer went.
    public var metrics: TransferMetrics
    /// The server's certificates, leaf first, as DER (empty for plain HTTP or when not recorded).
    public var peerCertificates: [Data]

    /// Creates a response.
    public init(head: HTTPResponseHead, body: HTTPResponseBody, metrics: TransferMetrics = TransferMetrics(), peerCertificates: [Data] = []) {
        self.head = head
        self.body = body
        self.metrics = metrics
        self.peerCertificates = peerCertificates
    }

    /// The status code.
    public var statusCode: Int { head.statusCode }
    /// The header fields.
    public var headers: HTTPHeaders { head.headers }
    /// The in-memory body, or `nil` when it went to a file or a stream.
    public var data: Data? {
        if case .data(let data) = body { return data }
        return nil
    }
}

extension HTTPResponseHead {
    /// The redirect statuses a session follows: 301, 302, 303, 307 and 308.
    public static let followedRedirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether a session may follow or answer this response rather than deliver it: a redirect it follows (with a
    /// `Location`) or a `401`/`407` challenge. A transport keeps such a hop away from a download's partial file.
    public var isInterimHop: Bool {
        statusCode == 401 || statusCode == 407
            || (Self.followedRedirectStatuses.contains(statusCode) && headers.contains("Location"))
    }
}
