import Foundation

/// Why ``TapedeckClientTransport`` could not turn an OpenAPI request or a transport's response into the other side's
/// value. The runtime reports it as a `ClientError` whose `underlyingError` is this.
public enum OpenAPITransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request's path and the client's base URL do not make an absolute `http` or `https` URL.
    case invalidURL(baseURL: URL, path: String, reason: String)
    /// A response header field's name is not a valid HTTP token, so `HTTPFields` cannot hold it.
    case invalidResponseHeaderName(String, url: URL)
    /// The response's status code is outside `0...999`, which `HTTPResponse.Status` cannot hold.
    case invalidStatusCode(Int, url: URL)

    /// How messages and reports print it.
    public var description: String {
        switch self {
        case .invalidURL(let baseURL, let path, let reason):
            return "cannot join the request path \"\(path)\" to the base URL \(baseURL.absoluteString): \(reason)"
        case .invalidResponseHeaderName(let name, let url):
            return "the response from \(url.absoluteString) has a header field named \"\(name)\", which is not a valid HTTP field name"
        case .invalidStatusCode(let code, let url):
            return "the response from \(url.absoluteString) has the status code \(code), outside 0...999"
        }
    }
}
