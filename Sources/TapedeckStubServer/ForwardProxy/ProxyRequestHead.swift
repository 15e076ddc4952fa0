import Foundation

/// The first request head on a connection to a ``ForwardProxy``, as far as the proxy must read it to know where the
/// connection goes: pure logic, tested without sockets.
struct ProxyRequestHead: Equatable {
    /// What the request line asks for.
    enum Target: Equatable {
        /// `CONNECT host:port`: a tunnel, here intercepted (TLS is terminated with a leaf for `host`).
        case connect(host: String, port: UInt16)
        /// An absolute-form target (`GET http://host/path`): a plain request through the proxy.
        case absolute
        /// An origin-form target (`GET /path`): a request meant for a server, not a proxy.
        case origin
    }

    /// What parsing the bytes received so far gives.
    enum Parsed: Equatable {
        /// The whole head, `length` bytes up to and including its blank line.
        case complete(ProxyRequestHead, length: Int)
        /// More bytes are needed.
        case incomplete
        /// Not an HTTP/1.x request head; the text says what is wrong.
        case invalid(String)
    }

    /// The request method, e.g. `CONNECT`.
    var method: String
    var target: Target

    /// Longest head read: a longer one is refused.
    static let maximumLength = 64 * 1024

    /// Parses the head at the start of `bytes` (which may hold more after it, or less than all of it).
    static func parse(_ bytes: [UInt8]) -> Parsed {
        guard let end = headEnd(bytes) else {
            if bytes.count >= maximumLength {
                return .invalid("the request head is longer than \(maximumLength) bytes")
            }
            return .incomplete
        }
        let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? end
        var line = String(decoding: bytes[..<lineEnd], as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("HTTP/1.") else {
            return .invalid("\"\(line.prefix(200))\" is not an HTTP/1.x request line (METHOD TARGET HTTP/1.1)")
        }
        let method = String(parts[0])
        let target = String(parts[1])
        if method.uppercased() == "CONNECT" {
            guard let (host, port) = authority(target) else {
                return .invalid("CONNECT \(target.prefix(200)): the target must be HOST:PORT, e.g. api.example.com:443")
            }
            return .complete(ProxyRequestHead(method: method, target: .connect(host: host, port: port)), length: end)
        }
        let lowered = target.lowercased()
        let isAbsolute = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        return .complete(ProxyRequestHead(method: method, target: isAbsolute ? .absolute : .origin), length: end)
    }

    /// `host:port` or `[v6]:port` as a bare host and a port; `nil` when either is missing or malformed.
    static func authority(_ text: String) -> (String, UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { return nil }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == "@" || $0 == " " }) else { return nil }
        return (host.lowercased(), port)
    }

    /// The offset just past the blank line that ends the head (`\r\n\r\n`, or `\n\n` from a lax client).
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        var index = 0
        while index < bytes.count {
            if bytes[index] == newline {
                var next = index + 1
                if next < bytes.count, bytes[next] == carriageReturn { next += 1 }
                if next < bytes.count, bytes[next] == newline { return next + 1 }
            }
            index += 1
        }
        return nil
    }
}
