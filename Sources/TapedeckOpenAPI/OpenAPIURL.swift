import Foundation

/// Joins an OpenAPI request's path to a client's base URL.
///
/// OpenAPI's rule is concatenation, not RFC 3986 resolution: on the server URL `https://api.example.com/v1`, the
/// operation path `/users?page=2` is `https://api.example.com/v1/users?page=2` (AFNetworking's joining would drop
/// `/v1`). The request path comes percent-encoded from the runtime and is kept byte for byte.
enum OpenAPIURL {
    /// `path` (a path starting with `/`, with an optional query, as `HTTPRequest.path` holds it) after the path of
    /// `baseURL`. A query on the base URL is kept before the request's own. A fragment on either is dropped, as it is
    /// never sent.
    ///
    /// - Throws: ``OpenAPITransportError/invalidURL(baseURL:path:reason:)`` when the path does not start with `/`, the
    ///   base URL is not an `http` or `https` URL with a host, or the result is not a valid URL.
    static func joining(_ path: String, to baseURL: URL) throws -> URL {
        func failure(_ reason: String) -> OpenAPITransportError {
            .invalidURL(baseURL: baseURL, path: path, reason: reason)
        }
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw failure("the base URL's scheme must be http or https")
        }
        guard let host = baseURL.host, !host.isEmpty else { throw failure("the base URL has no host") }
        guard path.isEmpty || path.hasPrefix("/") else { throw failure("the path must start with \"/\"") }

        let (basePart, baseQuery) = splitQuery(dropFragment(baseURL.absoluteString))
        let (pathPart, pathQuery) = splitQuery(dropFragment(path))
        var text = basePart.hasSuffix("/") ? String(basePart.dropLast()) : basePart
        text += pathPart
        let query = [baseQuery, pathQuery].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        if !query.isEmpty { text += "?" + query }
        guard let url = URL(string: text) else { throw failure("\"\(text)\" is not a valid URL") }
        return url
    }

    private static func dropFragment(_ text: String) -> Substring {
        text.firstIndex(of: "#").map { text[..<$0] } ?? text[...]
    }

    private static func splitQuery(_ text: Substring) -> (String, String?) {
        guard let mark = text.firstIndex(of: "?") else { return (String(text), nil) }
        return (String(text[..<mark]), String(text[text.index(after: mark)...]))
    }
}
