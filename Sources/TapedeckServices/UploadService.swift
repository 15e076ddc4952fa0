import Foundation
import Tapedeck

/// Uploads to the upload service: multipart forms or raw bodies, streamed, with progress.
///
/// ```swift
/// let result = try await network.upload.multipart("avatars", progress: { print($0.fractionCompleted) }) { form in
///     try form.append(fileURL: avatar, name: "avatar")
/// }
/// ```
public final class UploadService: Sendable {
    let baseURL: URL
    let session: SessionManager
    private let serializer: HTTPRequestSerializer

    private let policy: SecurityPolicy

    init(config: NetworkConfig, transport: any HTTPTransport, policy: SecurityPolicy, reachability: NetworkReachabilityManager?) {
        self.policy = policy
        baseURL = config.uploadBaseURL
        session = SessionManager(transport: transport, responseSerializer: JSONResponseSerializer(), reachability: reachability)
        serializer = config.requestSerializer()
    }

    /// A multipart `POST` of the form `constructingBody` builds, plus `parameters` as fields.
    ///
    /// - Throws: ``RequestSerializationError`` before sending; then `URLError` or ``ResponseSerializationError``.
    @discardableResult
    public func multipart(
        _ path: String, parameters: JSONValue? = nil, progress: (@Sendable (Progress) -> Void)? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void
    ) async throws -> ServiceResult {
        var request = try serializer.multipartRequest(
            method: .post, url: ServiceURL.resolve(path, against: baseURL), parameters: parameters,
            constructingBody: constructingBody)
        policy.apply(to: &request)
        return try await run(request, body: request.body, progress: progress)
    }

    /// Uploads `body` (data, a file or a stream) as it is, with `contentType`.
    @discardableResult
    public func upload(
        _ path: String, method: HTTPMethod = .put, body: HTTPRequestBody, contentType: String = "application/octet-stream",
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> ServiceResult {
        var request = try serializer.request(method: method, url: ServiceURL.resolve(path, against: baseURL), parameters: nil)
        request.headers["Content-Type"] = contentType
        policy.apply(to: &request)
        return try await run(request, body: body, progress: progress)
    }

    private func run(_ request: HTTPRequest, body: HTTPRequestBody, progress: (@Sendable (Progress) -> Void)?) async throws -> ServiceResult {
        let task = session.uploadTask(with: request, from: body, progress: progress)
        task.resume()
        let result = await task.result
        if let error = result.error { throw error }
        return ServiceResult(result)
    }
}
