import Foundation
import Tapedeck

/// JSON requests to the data service: the common case of an app's API calls.
///
/// Requests send `parameters` as a JSON body (`POST`, `PUT`, `PATCH`) or as a query string (`GET`, `DELETE`), and
/// decode the answer as JSON. A status outside 200–299 throws `ResponseSerializationError` with the body under
/// `data`, so an API's error document stays readable.
///
/// ```swift
/// let session = try await network.data.post("auth/sign-in", parameters: ["user": "ada", "password": secret])
/// let token = session.json?["token"]?.stringValue
/// ```
public final class DataService: Sendable {
    /// The client this service configures: base URL, JSON request serializer, security policy, reachability.
    public let api: HTTPSessionManager

    init(config: NetworkConfig, transport: any HTTPTransport, policy: SecurityPolicy,
         reachability: NetworkReachabilityManager?) throws(SecurityPolicyError) {
        api = try config.client(baseURL: config.dataBaseURL, transport: transport, policy: policy, reachability: reachability,
                                requestSerializer: JSONRequestSerializer(base: config.requestSerializer()))
    }

    /// Sends `method` to `path` with `parameters` and decodes the JSON answer.
    ///
    /// - Throws: `RequestSerializationError` before sending; then `URLError` or `ResponseSerializationError`.
    @discardableResult
    public func request(
        _ method: HTTPMethod, _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]
    ) async throws -> ServiceResult {
        ServiceResult(try await api.request(method, path, parameters: parameters, headers: headers))
    }

    /// `POST` with a JSON body.
    @discardableResult
    public func post(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]) async throws -> ServiceResult {
        try await request(.post, path, parameters: parameters, headers: headers)
    }

    /// `GET` with a query string.
    @discardableResult
    public func get(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]) async throws -> ServiceResult {
        try await request(.get, path, parameters: parameters, headers: headers)
    }
}
