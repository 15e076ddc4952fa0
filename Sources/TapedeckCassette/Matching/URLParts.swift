/// The parts of an absolute URL string that matching looks at, split without Foundation so that replay stays cheap.
/// Scheme and host are lowercased; the query is kept raw, as `name=value` items in order.
struct URLParts: Hashable, Sendable {
    var scheme: Substring
    var host: Substring
    var port: Substring
    var path: Substring
    var query: Substring?
    /// Whether scheme or host contain upper-case letters, or a fragment or default port is present, so that the
    /// normalized URL differs from the text.
    var needsNormalization: Bool

    init(_ url: String) {
        var rest = Substring(url)
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        var normalize = rest.endIndex != url.endIndex
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            scheme = rest[..<colon]
            rest = rest[rest.index(colon, offsetBy: 3)...]
        } else {
            scheme = ""
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let closing = authority.lastIndex(of: "]") {
            host = authority[...closing]
            let afterHost = authority[authority.index(after: closing)...]
            port = afterHost.hasPrefix(":") ? afterHost.dropFirst() : ""
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
            port = ""
        }
        rest = rest[authorityEnd...]
        if let mark = rest.firstIndex(of: "?") {
            path = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        } else {
            path = rest
            query = nil
        }
        if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") || path.isEmpty {
            normalize = true
        }
        if scheme.utf8.contains(where: { (0x41...0x5A).contains($0) }) || host.utf8.contains(where: { (0x41...0x5A).contains($0) }) {
            normalize = true
        }
        if let query, query.contains("&") || query.isEmpty { normalize = true }
        needsNormalization = normalize
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
            let name = FormCoding.decode(pieces[0])
            let value = pieces.count > 1 ? FormCoding.decode(pieces[1]) : ""
            return (name, value)
        }
    }
}
