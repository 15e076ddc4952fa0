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
        guard let url = URL(string: path, relativeTo: base?.normalizedAsBase)?.absoluteURL, url.scheme != nil, url.host != nil
        else { return nil }
        return url
    }
}
