import Foundation
import Tapedeck

/// How a service turns a path into a URL: a string that already starts with `http://` or `https://` is used as it
/// is; anything else is resolved against the service's base URL by AFNetworking's rules (a base path gets a
/// trailing slash, then RFC 3986), so `"users/7"` on `https://api.example.com/v1` is `https://api.example.com/v1/users/7`.
enum ServiceURL {
    static func resolve(_ path: String, against base: URL) throws -> URL {
        let lowered = path.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: path), url.host != nil else { throw RequestSerializationError.invalidURLString(path) }
            return url
        }
        let normalized = base.path.isEmpty || base.path.hasSuffix("/") ? base : base.appendingPathComponent("")
        guard let url = URL(string: path, relativeTo: normalized)?.absoluteURL, url.host != nil else {
            throw RequestSerializationError.invalidURLString(path)
        }
        return url
    }
}
