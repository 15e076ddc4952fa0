import Foundation
import TapedeckCurl
import TapedeckCore

/// HTTP verbs over a base URL with request and response serializers: AFNetworking's `AFHTTPSessionManager`.
///
/// Relative paths join the base URL the way AFNetworking joins them: a base path without a trailing slash gets one,
/// relative paths resolve by RFC 3986 (`"users"` → `/v1/users`, `"/users"` → `/users`), and an absolute URL string
/// replaces the base. Every verb comes in two styles: `async throws`, and AFNetworking's progress/success/failure
/// closures (run on the completion queue).
///
/// ```swift
/// let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1")!)
/// let result = try await api.get("users", parameters: ["page": 2])
/// let users = result.value as? JSONValue
///
/// api.post("users", parameters: ["name": "Ada"], success: { task, object in print(object ?? "") },
///          failure: { task, error in print(error) })
/// ```
public final class HTTPSessionManager: Sendable {
    /// The URL relative paths are resolved against (normalized to end with `/`).
    public let baseURL: URL?
    /// The underlying task manager (its response serializer and completion queue are this manager's).
    public let session: SessionManager
    private let serializer: Locked<any RequestSerializer>
    private let policy = Locked(SecurityPolicy.default)

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - baseURL: where relative paths point; `nil` means every path must be an absolute URL.
    ///   - transport: where requests go; the live libcurl transport by default.
    ///   - requestSerializer: how parameters are encoded; form/query encoding by default.
    ///   - responseSerializer: how bodies are decoded; JSON by default.
    public init(
        baseURL: URL? = nil,
        transport: any HTTPTransport = CurlTransport(),
        requestSerializer: any RequestSerializer = HTTPRequestSerializer(),
        responseSerializer: any ResponseSerializer = JSONResponseSerializer()
    ) {
        self.baseURL = baseURL?.normalizedAsBase
        session = SessionManager(transport: transport, responseSerializer: responseSerializer)
        serializer = Locked(requestSerializer)
    }

    /// Creates a manager whose requests are all evaluated under `securityPolicy`.
    ///
    /// ```swift
    /// let policy = try SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [.der(pinnedDER)])
    /// let api = try HTTPSessionManager(baseURL: URL(string: "https://api.example.com")!, securityPolicy: policy)
    /// ```
    /// - Throws: ``SecurityPolicyError`` when the policy cannot protect `baseURL` (see
    ///   ``SecurityPolicy/validate(for:)``); nothing is created then.
    public convenience init(
        baseURL: URL? = nil,
        transport: any HTTPTransport = CurlTransport(),
        securityPolicy: SecurityPolicy,
        requestSerializer: any RequestSerializer = HTTPRequestSerializer(),
        responseSerializer: any ResponseSerializer = JSONResponseSerializer()
    ) throws(SecurityPolicyError) {
        self.init(baseURL: baseURL, transport: transport, requestSerializer: requestSerializer,
                  responseSerializer: responseSerializer)
        try setSecurityPolicy(securityPolicy)
    }

    /// How HTTPS servers are trusted; applied to every request this manager builds. ``SecurityPolicy/default``
    /// unless set with ``setSecurityPolicy(_:)``.
    public var securityPolicy: SecurityPolicy { policy.withLock { $0 } }

    /// Replaces the security policy for requests built from now on, after checking it suits ``baseURL``:
    /// AFNetworking raises when a pinning policy is set on a non-https base URL; this throws instead.
    ///
    /// ```swift
    /// try api.setSecurityPolicy(SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: pins))
    /// ```
    /// - Throws: ``SecurityPolicyError``; the previous policy stays in force.
    public func setSecurityPolicy(_ securityPolicy: SecurityPolicy) throws(SecurityPolicyError) {
        try securityPolicy.validate(for: baseURL)
        policy.withLock { $0 = securityPolicy }
    }

    /// How parameters become requests.
    public var requestSerializer: any RequestSerializer {
        get { serializer.withLock { $0 } }
        set { serializer.withLock { $0 = newValue } }
    }

    /// How response bodies become values.
    public var responseSerializer: any ResponseSerializer {
        get { session.responseSerializer }
        set { session.responseSerializer = newValue }
    }

    /// Where closures run.
    public var completionQueue: DispatchQueue {
        get { session.completionQueue }
        set { session.completionQueue = newValue }
    }

    /// `path` resolved against ``baseURL``, or parsed as an absolute URL, by `URL/resolving(_:against:)`.
    public func url(for path: String) throws -> URL {
        guard let url = URL.resolving(path, against: baseURL) else { throw RequestSerializationError.invalidURLString(path) }
        return url
    }

    // MARK: - async

    /// Sends a request built from `method`, `path` and `parameters`, and returns the serialized result.
    ///
    /// - Throws: ``RequestSerializationError`` before anything is sent; then the transport's `URLError` or a
    ///   ``ResponseSerializationError``.
    @discardableResult
    public func request(
        _ method: HTTPMethod, _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        uploadProgress: (@Sendable (Progress) -> Void)? = nil,
        downloadProgress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> SessionTaskResult {
        let request = try makeRequest(method, path, parameters: parameters, headers: headers)
        let result = await session.dataTask(with: request, uploadProgress: uploadProgress, downloadProgress: downloadProgress).run()
        if let error = result.error { throw error }
        return result
    }

    /// `GET`.
    @discardableResult
    public func get(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
                    progress: (@Sendable (Progress) -> Void)? = nil) async throws -> SessionTaskResult {
        try await request(.get, path, parameters: parameters, headers: headers, downloadProgress: progress)
    }

    /// `HEAD`.
    @discardableResult
    public func head(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]) async throws -> SessionTaskResult {
        try await request(.head, path, parameters: parameters, headers: headers)
    }

    /// `POST`.
    @discardableResult
    public func post(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
                     progress: (@Sendable (Progress) -> Void)? = nil) async throws -> SessionTaskResult {
        try await request(.post, path, parameters: parameters, headers: headers, uploadProgress: progress)
    }

    /// `PUT`.
    @discardableResult
    public func put(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]) async throws -> SessionTaskResult {
        try await request(.put, path, parameters: parameters, headers: headers)
    }

    /// `PATCH`.
    @discardableResult
    public func patch(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]) async throws -> SessionTaskResult {
        try await request(.patch, path, parameters: parameters, headers: headers)
    }

    /// `DELETE`.
    @discardableResult
    public func delete(_ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:]) async throws -> SessionTaskResult {
        try await request(.delete, path, parameters: parameters, headers: headers)
    }

    /// A multipart `POST`: form fields from `parameters`, then the parts `constructingBody` adds. The body streams,
    /// so large files keep memory flat.
    @discardableResult
    public func post(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        constructingBody: (inout MultipartFormData) throws -> Void,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> SessionTaskResult {
        let request = try makeMultipartRequest(path, parameters: parameters, headers: headers, constructingBody: constructingBody)
        let result = await session.uploadTask(with: request, from: request.body, progress: progress).run()
        if let error = result.error { throw error }
        return result
    }

    /// Uploads `body` (data, a file, or a stream) with `method` to `path`: AFNetworking's
    /// `uploadTaskWithRequest:fromFile:` / `fromData:` over this manager's base URL, serializer and policy.
    ///
    /// ```swift
    /// let result = try await api.upload(.put, "avatars/7", from: .file(photo), headers: ["Content-Type": "image/jpeg"])
    /// ```
    @discardableResult
    public func upload(
        _ method: HTTPMethod = .put, _ path: String, from body: HTTPRequestBody, headers: HTTPHeaders = [:],
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> SessionTaskResult {
        let request = try makeRequest(method, path, parameters: nil, headers: headers)
        let result = await session.uploadTask(with: request, from: body, progress: progress).run()
        if let error = result.error { throw error }
        return result
    }

    /// A download task for `GET path`, started, whose file ends up where `destination` says (see
    /// ``SessionManager/downloadTask(with:progress:destination:completion:)``); await its ``SessionTask/result``.
    ///
    /// ```swift
    /// let task = try api.download("reports/2026.pdf") { _, _ in documents.appendingPathComponent("2026.pdf") }
    /// let file = await task.result.fileURL
    /// ```
    /// - Throws: ``RequestSerializationError`` when the request cannot be built.
    public func download(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        progress: (@Sendable (Progress) -> Void)? = nil,
        destination: @escaping @Sendable (URL, HTTPResponseHead) -> URL
    ) throws -> SessionTask {
        let request = try makeRequest(.get, path, parameters: parameters, headers: headers)
        let task = session.downloadTask(with: request, progress: progress, destination: destination)
        task.resume()
        return task
    }

    // MARK: - Building requests

    /// The request for `method` and `path` from the request serializer, with `headers` and the security policy.
    func makeRequest(_ method: HTTPMethod, _ path: String, parameters: JSONValue?, headers: HTTPHeaders) throws -> HTTPRequest {
        completing(try requestSerializer.request(method: method, url: try url(for: path), parameters: parameters), headers: headers)
    }

    /// The multipart `POST` for `path` from the request serializer, with `headers` and the security policy.
    func makeMultipartRequest(
        _ path: String, parameters: JSONValue?, headers: HTTPHeaders, constructingBody: (inout MultipartFormData) throws -> Void
    ) throws -> HTTPRequest {
        completing(try requestSerializer.multipartRequest(
            method: .post, url: try url(for: path), parameters: parameters, constructingBody: constructingBody), headers: headers)
    }

    private func completing(_ request: HTTPRequest, headers: HTTPHeaders) -> HTTPRequest {
        var request = request
        for field in headers { request.headers[field.name] = field.value }
        securityPolicy.apply(to: &request)
        return request
    }
}
