import Foundation
import Tapedeck

/// What a data or upload call answered: the status, the headers and the decoded JSON.
public struct ServiceResult: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The body decoded as JSON, or `nil` for an empty body.
    public var json: JSONValue?
    /// The raw body.
    public var data: Data?

    init(_ result: SessionTaskResult) {
        statusCode = result.response?.statusCode ?? 0
        headers = result.response?.headers ?? [:]
        json = result.value as? JSONValue
        data = result.data
    }
}
