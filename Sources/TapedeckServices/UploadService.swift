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
    /// The client this service configures: base URL, form serializer, security policy, reachability.
    public let api: HTTPSessionManager

    init(config: NetworkConfig, transport: any HTTPTransport, policy: SecurityPolicy,
         reachability: NetworkReachabilityManager?) throws(SecurityPolicyError) {
        api = try config.client(baseURL: config.uploadBaseURL, transport: transport, policy: policy, reachability: reachability,
                                requestSerializer: config.requestSerializer())
    }

    /// A multipart `POST` of the form `constructingBody` builds, plus `parameters` as fields.
    ///
    /// - Throws: `RequestSerializationError` before sending; then `URLError` or `ResponseSerializationError`.
    @discardableResult
    public func multipart(
        _ path: String, parameters: JSONValue? = nil, progress: (@Sendable (Progress) -> Void)? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void
    ) async throws -> ServiceResult {
        ServiceResult(try await api.post(path, parameters: parameters, constructingBody: constructingBody, progress: progress))
    }

    /// Uploads `body` (data, a file or a stream) as it is, with `contentType`.
    @discardableResult
    public func upload(
        _ path: String, method: HTTPMethod = .put, body: HTTPRequestBody, contentType: String = "application/octet-stream",
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> ServiceResult {
        ServiceResult(try await api.upload(method, path, from: body, headers: ["Content-Type": contentType], progress: progress))
    }
}
