import TapedeckCore

/// The parts of an absolute URL string that matching looks at, split without Foundation so that replay stays cheap.
/// Scheme and host are lowercased; the query is kept raw, as `name=value` items in order. A path with a query and no
/// scheme or host (`/pets?limit=2`) splits as well. Shared with the package's other modules (OpenAPI checking).
package struct URLParts: Hashable, Sendable {
    package var scheme: Substring
    package var host: Substring
    package var port: Substring
    package var path: Substring
    package var query: Substring?
    /// Whether scheme or host contain upper-case letters, or a fragment or default port is present, so that the
    /// normalized URL differs from the text.
    var needsNormalization: Bool

    package init(_ url: String) {
        // Searches run on the UTF-8 view: these are ASCII delimiters, and Character iteration would pay for
        // grapheme breaking on every replayed request.
        let bytes = url.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var normalize = end != bytes.endIndex
        var cursor = bytes.startIndex
        scheme = ""
        if let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), bytes[colon..<end].starts(with: "://".utf8) {
            scheme = url[..<colon]
            cursor = bytes.index(colon, offsetBy: 3)
        }
        let authorityEnd = bytes[cursor..<end].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? end
        var authorityStart = cursor
        if let at = bytes[cursor..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) { authorityStart = bytes.index(after: at) }
        let authority = bytes[authorityStart..<authorityEnd]
        if let closing = authority.lastIndex(of: UInt8(ascii: "]")) {
            host = url[authorityStart...closing]
            let afterHost = bytes.index(after: closing)
            port = afterHost < authorityEnd && bytes[afterHost] == UInt8(ascii: ":") ? url[bytes.index(after: afterHost)..<authorityEnd] : ""
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")), authority.firstIndex(of: UInt8(ascii: ":")) == colon,
                  authority.first != UInt8(ascii: "[") {
            // One colon: host and port. An authority with more (an IPv6 address without its closing bracket, `a::`)
            // is no host:port, and stays whole as the host, so that normalizing it twice gives what once does.
            host = url[authorityStart..<colon]
            port = url[bytes.index(after: colon)..<authorityEnd]
        } else {
            host = url[authorityStart..<authorityEnd]
            port = ""
        }
        if let mark = bytes[authorityEnd..<end].firstIndex(of: UInt8(ascii: "?")) {
            path = url[authorityEnd..<mark]
            query = url[bytes.index(after: mark)..<end]
        } else {
            path = url[authorityEnd..<end]
            query = nil
        }
        if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") || path.isEmpty {
            normalize = true
        }
        if scheme.utf8.contains(where: { (0x41...0x5A).contains($0) }) || host.utf8.contains(where: { (0x41...0x5A).contains($0) }) {
            normalize = true
        }
        if let query, query.isEmpty || !Self.itemsAreSorted(query) { normalize = true }
        needsNormalization = normalize
    }

    /// The request target as written, `/path?query` (`/` for an empty path, the fragment left out): what a table row,
    /// a WireMock `url` or a sweep pattern shows of a recorded URL.
    ///
    /// ```swift
    /// URLParts("https://api.example.com/users?page=2#top").pathAndQuery   // "/users?page=2"
    /// ```
    package var pathAndQuery: String {
        let shownPath = path.isEmpty ? "/" : path
        return query.map { "\(shownPath)?\($0)" } ?? String(shownPath)
    }

    /// Whether the `&`-separated items of `query` are non-empty and already in sorted order (so the normalized
    /// query is the query itself), checked without allocating.
    static func itemsAreSorted(_ query: Substring) -> Bool {
        let bytes = query.utf8
        var previous: Substring?
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            guard start < end else { return false }
            let item = query[start..<end]
            if let previous, previous > item { return false }
            previous = item
            guard end < bytes.endIndex else { return true }
            start = bytes.index(after: end)
        }
    }

    /// The query's `name=value` items, in order (empty items dropped).
    var queryItems: [Substring] {
        guard let query else { return [] }
        return query.split(separator: "&")
    }

    /// The query items sorted, joined with `&`: the query compared when order is ignored.
    var sortedQuery: String { queryItems.sorted().joined(separator: "&") }

    /// The normalized authority: lowercased host and a non-default port.
    var normalizedAuthority: String {
        let defaultPort = (scheme.lowercased() == "http" && port == "80") || (scheme.lowercased() == "https" && port == "443")
        return host.lowercased() + (port.isEmpty || defaultPort ? "" : ":" + port)
    }

    /// The normalized URL without fragment, with the query in sorted order.
    func normalized(original: String) -> String {
        guard needsNormalization else { return original }
        let query = sortedQuery
        return scheme.lowercased() + "://" + normalizedAuthority + (path.isEmpty ? "/" : String(path)) + (query.isEmpty ? "" : "?" + query)
    }

    /// The query as decoded `(name, value)` pairs, for messages and redaction.
    var decodedQueryPairs: [(name: String, value: String)] {
        queryItems.map { item in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = URLEncodedForm.decode(pieces[0])
            let value = pieces.count > 1 ? URLEncodedForm.decode(pieces[1]) : ""
            return (name, value)
        }
    }
}
