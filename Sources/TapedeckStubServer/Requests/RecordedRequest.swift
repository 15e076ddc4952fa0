import Foundation
import TapedeckCore

/// A request as the stub server received it: kept in the journal and handed to handlers.
public struct RecordedRequest: Sendable, Hashable {
    /// Position in the server's journal, from 1.
    public var sequenceNumber: Int
    /// The method.
    public var method: HTTPMethod
    /// The path as sent, still percent-encoded, e.g. `/a%20b`.
    public var path: String
    /// The raw query string without `?`, or `nil` when the target had none.
    public var query: String?
    /// The protocol version, e.g. `HTTP/1.1`.
    public var version: String
    /// Header fields in the order they arrived.
    public var headers: HTTPHeaders
    /// The body, or its first bytes when ``bodyTruncated`` (see the server's body limits).
    public var body: Data
    /// The full body length in bytes.
    public var bodyLength: Int64
    /// Whether ``body`` holds only the first bytes.
    public var bodyTruncated: Bool
    /// Lowercase hex SHA-256 of the full body, however long it was.
    public var bodySHA256: String
    /// When the request's headers arrived.
    public var receivedAt: Date
    /// The ID of the stub that answered, or `nil` when none matched (the request got a 404).
    public var matchedStubID: Stub.ID?

    /// Creates a recorded request (the server builds these; tests may too).
    public init(
        sequenceNumber: Int = 0, method: HTTPMethod, path: String, query: String? = nil, version: String = "HTTP/1.1",
        headers: HTTPHeaders = [:], body: Data = Data(), bodyLength: Int64? = nil, bodyTruncated: Bool = false,
        bodySHA256: String = "", receivedAt: Date = Date(), matchedStubID: Stub.ID? = nil
    ) {
        self.sequenceNumber = sequenceNumber
        self.method = method
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength ?? Int64(body.count)
        self.bodyTruncated = bodyTruncated
        self.bodySHA256 = bodySHA256
        self.receivedAt = receivedAt
        self.matchedStubID = matchedStubID
    }

    /// The decoded query items, in order (`+` is not treated as a space): `a=1&b&c=` gives `a` = `1`, `b` with no
    /// value and `c` = empty. An escape that does not decode (`%zz`, bytes that are not UTF-8) is kept as written.
    public var queryItems: [URLQueryItem] {
        // Split here rather than through URLComponents.percentEncodedQuery, whose setter traps on characters a query
        // may not contain (a space, a control character), and a client can send any bytes.
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { item in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return URLQueryItem(name: Self.percentDecoded(pieces[0]), value: pieces.count > 1 ? Self.percentDecoded(pieces[1]) : nil)
        }
    }

    private static func percentDecoded(_ text: Substring) -> String {
        text.removingPercentEncoding ?? String(text)
    }

    /// The path with percent-escapes decoded.
    public var decodedPath: String {
        path.utf8.contains(UInt8(ascii: "%")) ? (path.removingPercentEncoding ?? path) : path
    }
}
