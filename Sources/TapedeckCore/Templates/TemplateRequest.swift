import Foundation

/// What a ``TextTemplate`` reads from the request it answers: the stub server's recorded requests and the requests
/// a cassette replays both provide it.
public protocol TemplateRequest {
    /// The method, e.g. `GET`.
    var templateMethod: String { get }
    /// The decoded path, e.g. `/users/7`.
    var templatePath: String { get }
    /// The body bytes (empty when there is none, or when it is not in memory).
    var templateBody: Data { get }
    /// The first decoded query parameter `name`, if any.
    func templateQuery(_ name: String) -> String?
    /// The first header field `name` (case-insensitive), if any.
    func templateHeader(_ name: String) -> String?
}

extension HTTPRequest: TemplateRequest {
    /// The method.
    public var templateMethod: String { method.rawValue }
    /// The decoded path of the URL.
    public var templatePath: String { url.path }
    /// An in-memory body; empty for files and streams.
    public var templateBody: Data {
        if case .data(let data) = body { return data }
        return Data()
    }
    /// The first query parameter `name`, decoded.
    public func templateQuery(_ name: String) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
    /// The first header field `name`.
    public func templateHeader(_ name: String) -> String? { headers[name] }
}
