import Foundation

/// RFC 9111's rules about what may be stored (§3), how a stored response is freshened by a `304` (§3.2, §4.3.4),
/// how `Vary` selects a stored response (§4.1), and what an unsafe request invalidates (§4.4). Pure functions.
enum CacheRules {
    /// Status codes whose responses may be freshened heuristically (RFC 9110 §15.1), less `206`, whose partial
    /// content this cache does not combine.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Status codes this cache understands and may store when the response allows it explicitly.
    static let understoodStatuses: Set<Int> = heuristicallyCacheableStatuses
        .union([302, 303, 307, 400, 403, 451, 500, 502, 503, 504])

    /// Methods that never change the origin's state; any other method invalidates (§4.4).
    static func isSafe(_ method: HTTPMethod) -> Bool {
        method == .get || method == .head || method == .options || method == .trace
    }

    /// Whether a response may be given a heuristic freshness lifetime (§4.2.2).
    static func mayUseHeuristicFreshness(statusCode: Int, directives: CacheControl) -> Bool {
        heuristicallyCacheableStatuses.contains(statusCode) || directives.isPublic
    }

    /// Whether a private cache may store this response to this request (§3).
    static func isStorable(
        method: HTTPMethod, requestHeaders: HTTPHeaders, statusCode: Int, headers: HTTPHeaders, directives: CacheControl
    ) -> Bool {
        guard method == .get, understoodStatuses.contains(statusCode), !directives.noStore else { return false }
        if scanRequest(requestHeaders).directives, CacheControl(requestHeaders).noStore { return false }
        if requestHeaders.contains("Authorization"),
           !(directives.isPublic || directives.sharedMaxAge != nil || directives.mustRevalidate) { return false }
        if varyNames(headers) == nil { return false }
        // Explicit freshness, public, or a status that may be freshened heuristically (§3, last bullet list).
        return directives.maxAge != nil || directives.sharedMaxAge != nil || headers.contains("Expires")
            || mayUseHeuristicFreshness(statusCode: statusCode, directives: directives)
    }

    /// The lowercased field names `Vary` lists (empty when there is none), or `nil` for `Vary: *`, which no request
    /// ever matches.
    static func varyNames(_ headers: HTTPHeaders) -> [String]? {
        var names: [String] = []
        for field in headers where field.name.caseInsensitiveEquals("Vary") {
            for (name, _) in CacheControl.directives(in: field.value) {
                if name == "*" { return nil }
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The request's fields named in `varyNames`, as they are stored beside the response.
    static func varyingFields(of request: HTTPHeaders, varyNames: [String]) -> HTTPHeaders {
        guard !varyNames.isEmpty else { return [:] }
        return HTTPHeaders(request.fields.filter { field in varyNames.contains { field.name.caseInsensitiveEquals($0) } })
    }

    /// Whether `request` sends the same values for every field in `varyNames` as `stored` recorded (§4.1): a field
    /// absent from both matches; several fields of one name compare as their comma-joined list.
    static func varyMatches(_ request: HTTPHeaders, _ stored: HTTPHeaders, varyNames: [String]) -> Bool {
        for name in varyNames where combinedValue(request, name) != combinedValue(stored, name) { return false }
        return true
    }

    private static func combinedValue(_ headers: HTTPHeaders, _ name: String) -> String? {
        var combined: String?
        for field in headers where field.name.caseInsensitiveEquals(name) {
            combined = combined.map { "\($0), \(field.value)" } ?? field.value
        }
        return combined
    }

    /// Header fields a cache never stores (§3.1): hop-by-hop fields, the proxy fields, and those `Connection` names.
    private static let unstoredFields: [String] = [
        "Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade",
        "Proxy-Authenticate", "Proxy-Authentication-Info", "Proxy-Authorization",
    ]

    /// `headers` without the fields a cache must not store.
    static func storableHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        let connectionOptions = headers.values(for: "Connection").flatMap { CacheControl.directives(in: $0).map(\.0) }
        guard headers.fields.contains(where: { isUnstored($0.name, connectionOptions) }) else { return headers }
        return HTTPHeaders(headers.fields.filter { !isUnstored($0.name, connectionOptions) })
    }

    private static func isUnstored(_ name: String, _ connectionOptions: [String]) -> Bool {
        unstoredFields.contains { name.caseInsensitiveEquals($0) }
            || connectionOptions.contains { name.caseInsensitiveEquals($0) }
    }

    /// The stored fields updated by a `304`'s (§3.2): each field the `304` carries replaces the stored fields of that
    /// name, except `Content-Length` and the fields a cache does not store.
    static func freshenedHeaders(_ stored: HTTPHeaders, with notModified: HTTPHeaders) -> HTTPHeaders {
        var merged = stored
        let update = storableHeaders(notModified)
        var replaced: [String] = []
        for field in update.fields where !field.name.caseInsensitiveEquals("Content-Length") {
            if replaced.contains(where: { $0.caseInsensitiveEquals(field.name) }) {
                merged.add(name: field.name, value: field.value)
            } else {
                replaced.append(field.name)
                merged.replaceOrAdd(name: field.name, value: field.value)
            }
        }
        return merged
    }

    /// Whether a `304` answers for `stored` (§4.3.4): its entity tag equals the stored one (weak comparison), or
    /// lacking one, its `Last-Modified` equals the stored one; a `304` with neither validator answers for the response
    /// that was validated (`validated`).
    static func notModified(_ notModified: HTTPHeaders, selects stored: HTTPHeaders, validated: Bool) -> Bool {
        if let tag = notModified["ETag"] {
            guard let storedTag = stored["ETag"] else { return false }
            return opaqueTag(tag) == opaqueTag(storedTag)
        }
        if let lastModified = notModified["Last-Modified"] {
            return stored["Last-Modified"] == lastModified
        }
        return validated
    }

    private static func opaqueTag(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag[...]
    }

    /// The conditional request that validates `stored` (§4.3.1), or `nil` when it has no validator.
    static func conditionalRequest(_ request: HTTPRequest, validating stored: HTTPHeaders) -> HTTPRequest? {
        let tag = stored["ETag"]
        let lastModified = stored["Last-Modified"]
        guard tag != nil || lastModified != nil else { return nil }
        var conditional = request
        if let tag { conditional.headers["If-None-Match"] = tag }
        if let lastModified { conditional.headers["If-Modified-Since"] = lastModified }
        return conditional
    }

    /// Whether a request's fields include `Cache-Control` or `Pragma` (`directives`), and preconditions of its own
    /// (`If-None-Match`, …), with which the cache passes it through untouched. One pass, skipping most fields by
    /// their first letter: this runs on every lookup.
    static func scanRequest(_ headers: HTTPHeaders) -> (directives: Bool, preconditions: Bool) {
        var directives = false
        var preconditions = false
        for field in headers.fields {
            switch (field.name.utf8.first ?? 0) | 0x20 {
            case UInt8(ascii: "c"), UInt8(ascii: "p"):
                directives = directives || field.name.caseInsensitiveEquals("Cache-Control") || field.name.caseInsensitiveEquals("Pragma")
            case UInt8(ascii: "i"):
                preconditions = preconditions || preconditionFields.contains { field.name.caseInsensitiveEquals($0) }
            default:
                continue
            }
        }
        return (directives, preconditions)
    }

    private static let preconditionFields = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"]

    /// The URLs an unsafe request's non-error response invalidates (§4.4): the target, and the `Location` and
    /// `Content-Location` URLs when they have the target's origin.
    static func invalidatedURLs(request: HTTPRequest, response: HTTPResponseHead) -> [URL] {
        var urls = [request.url]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name], let url = URL(string: value, relativeTo: request.url)?.absoluteURL,
                  sameOrigin(url, request.url) else { continue }
            urls.append(url)
        }
        return urls
    }

    private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        let schemeA = a.scheme?.lowercased(), schemeB = b.scheme?.lowercased()
        let port = { (url: URL, scheme: String?) in url.port ?? (scheme == "https" ? 443 : 80) }
        return schemeA == schemeB && a.host?.lowercased() == b.host?.lowercased() && port(a, schemeA) == port(b, schemeB)
    }
}
