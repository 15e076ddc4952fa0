import Foundation
import Tapedeck

/// JSON requests to the data service: the common case of an app's API calls.
///
/// Requests send `parameters` as a JSON body (`POST`, `PUT`, `PATCH`) or as a query string (`GET`, `DELETE`), and
/// decode the answer as JSON. A status outside 200–299 throws ``ResponseSerializationError`` with the body under
/// `data`, so an API's error document stays readable.
///
/// ```swift
/// let session = try await network.data.post("auth/sign-in", parameters: ["user": "ada", "password": secret])
/// let token = session.json?["token"]?.stringValue
/// ```
public final class DataService: Sendable {
    let baseURL: URL
    let session: SessionManager
    private let serializer: JSONRequestSerializer

    private let policy: SecurityPolicy

    init(config: NetworkConfig, transport: any HTTPTransport, policy: SecurityPolicy, reachability: NetworkReachabilityManager?) {
        self.policy = policy
        baseURL = config.dataBaseURL
        session = SessionManager(transport: transport, responseSerializer: JSONResponseSerializer(), reachability: reachability)
        serializer = JSONRequestSerializer(base: config.requestSerializer())
    }

    /// Sends `method` to `path` with `parameters` and decodes the JSON answer.
    ///
    /// - Throws: ``RequestSerializationError`` before sending; then `URLError` or ``ResponseSerializationError``.
    @discardableResult
    public func request(
        _ method: HTTPMethod, _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]
    ) async throws -> ServiceResult {
        var request = try serializer.request(method: method, url: ServiceURL.resolve(path, against: baseURL), parameters: parameters)
        for field in headers { request.headers[field.name] = field.value }
        policy.apply(to: &request)
        let task = session.dataTask(with: request)
        task.resume()
        let result = await task.result
        if let error = result.error { throw error }
        return ServiceResult(result)
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
