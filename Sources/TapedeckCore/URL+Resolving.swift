import Foundation

/// Joining a path to a base URL the way AFNetworking's `AFHTTPSessionManager` does, for every layer that has a base
/// URL (the client's `HTTPSessionManager`, the services layer).
extension URL {
    /// This URL as a base for relative paths: a non-empty path without a trailing slash gets one, so relative paths
    /// are appended to its last segment instead of replacing it. A URL with an empty path, or one ending in `/`, is
    /// returned unchanged.
    ///
    /// ```swift
    /// URL(string: "https://api.example.com/v1")!.normalizedAsBase  // https://api.example.com/v1/
    /// ```
    public var normalizedAsBase: URL {
        let path = self.path
        guard !path.isEmpty, !path.hasSuffix("/") else { return self }
        return appendingPathComponent("")
    }

    /// `path` joined to `base` by AFNetworking's rule:
    ///
    /// - a string that is itself an absolute URL with a host (`https://other.example.com/x`, any scheme, any case)
    ///   replaces the base;
    /// - anything else is resolved by RFC 3986 against ``normalizedAsBase`` of `base`: on `https://h/v1`, `"users"`
    ///   is `https://h/v1/users`, `"/users"` is `https://h/users`, `"../x"` is `https://h/x`.
    ///
    /// Returns `nil` when the result has no scheme or no host: a relative path without a base, or `"http://"`.
    ///
    /// ```swift
    /// URL.resolving("users/7", against: URL(string: "https://api.example.com/v1"))  // https://api.example.com/v1/users/7
    /// ```
    public static func resolving(_ path: String, against base: URL?) -> URL? {
        if let base, let joined = appendingPlainPath(path, to: base) { return joined }
        guard let url = URL(string: path, relativeTo: base?.normalizedAsBase)?.absoluteURL, url.scheme != nil, url.host != nil
        else { return nil }
        return url
    }

    /// The common case without RFC 3986's general algorithm (and its two URL parses): a base ending in `/` with no
    /// query or fragment, and a relative path of letters, digits, `-._~` and `/` with no `.` or `..` segment, whose
    /// resolution is the two texts one after the other. `nil` when the case is not that simple.
    private static func appendingPlainPath(_ path: String, to base: URL) -> URL? {
        let baseText = base.absoluteString
        guard baseText.utf8.last == UInt8(ascii: "/"),
              !baseText.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
              let first = path.utf8.first, first != UInt8(ascii: "/") else { return nil }
        var segmentStart = true
        var segmentIsDots = false
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                segmentIsDots = false
            case UInt8(ascii: "."):
                segmentIsDots = segmentStart || segmentIsDots
            case UInt8(ascii: "/"):
                if segmentIsDots { return nil }
                segmentStart = true
                continue
            default:
                return nil
            }
            segmentStart = false
        }
        if segmentIsDots { return nil }
        return URL(string: baseText + path)
    }
}
