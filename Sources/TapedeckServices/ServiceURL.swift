import Foundation
import Tapedeck

/// How a service turns a path into a URL: ``URL/resolving(_:against:)`` (an absolute URL string is used as it is;
/// anything else is resolved against the service's base URL by AFNetworking's rules), so `"users/7"` on
/// `https://api.example.com/v1` is `https://api.example.com/v1/users/7`.
enum ServiceURL {
    static func resolve(_ path: String, against base: URL) throws -> URL {
        guard let url = URL.resolving(path, against: base) else { throw RequestSerializationError.invalidURLString(path) }
        return url
    }
}
