import Foundation
import TapedeckCore

/// A client's upgrade request as it is written on the wire: `GET path HTTP/1.1`, `Host`, the handshake's headers and
/// the caller's own.
package struct WebSocketUpgradeRequestHead {
    package var url: URL
    package var headers: HTTPHeaders

    package init(url: URL, headers: HTTPHeaders) {
        self.url = url
        self.headers = headers
    }

    /// The request's bytes.
    package var bytes: [UInt8] {
        var text = "GET \(Self.target(of: url)) HTTP/1.1\r\n"
        if !headers.contains("Host") { text += "Host: \(Self.host(of: url))\r\n" }
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The request target: the percent-encoded path (or `/`) and query.
    static func target(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    /// The `Host` value: the host (an IPv6 address in brackets) and the port unless it is the scheme's default.
    static func host(of url: URL) -> String {
        let host = url.host ?? ""
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let isSecure = ["wss", "https"].contains(url.scheme?.lowercased() ?? "")
        guard let port = url.port, port != (isSecure ? 443 : 80) else { return shownHost }
        return "\(shownHost):\(port)"
    }
}

/// The head of the server's answer to an upgrade request: its status and headers.
public struct WebSocketUpgradeResponseHead: Sendable, Hashable {
    /// The status code (101 when the server agreed).
    public var status: Int
    /// The reason phrase.
    public var reason: String
    /// The headers, in order.
    public var headers: HTTPHeaders

    /// A response head.
    public init(status: Int, reason: String = "", headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// The largest head read before the answer is refused.
    static let maximumLength = 64 * 1024

    /// The head at the start of `bytes` and how many bytes it took, or nil when its end has not arrived yet.
    package static func parse(_ bytes: [UInt8]) throws(WebSocketHandshakeError) -> (head: WebSocketUpgradeResponseHead, length: Int)? {
        guard let end = headEnd(bytes) else {
            if bytes.count > maximumLength { throw .malformedResponse("no end of the head in \(maximumLength) bytes") }
            return nil
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]), (100...599).contains(status) else {
            throw .malformedResponse("status line \"\(lines[0].prefix(80))\"")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformedResponse("header line \"\(line.prefix(80))\"")
            }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let reason = statusLine.count > 2 ? String(statusLine[2]) : ""
        return (WebSocketUpgradeResponseHead(status: status, reason: reason, headers: headers), end + 4)
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D && bytes[index + 3] == 0x0A {
            return index
        }
        return nil
    }
}
