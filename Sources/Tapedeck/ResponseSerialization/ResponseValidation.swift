import Foundation

/// Which responses a serializer accepts before it decodes anything: AFNetworking's `acceptableStatusCodes` and
/// `acceptableContentTypes`, with its rules.
///
/// - The status code must be in `acceptableStatusCodes` (default 200–299), else
///   ``ResponseSerializationError/unacceptableStatusCode(_:head:data:contentTypeError:)`` (-1011).
/// - When `acceptableContentTypes` is set and the body is **not empty**, the response's MIME type (lowercased,
///   parameters dropped) must be in it, else
///   ``ResponseSerializationError/unacceptableContentType(_:head:data:)`` (-1016). A response without
///   `Content-Type` has no MIME type and fails this check when it has a body. An empty body (such as a 204 or 205)
///   never fails it.
/// - When both fail, the status error is thrown and wraps the content-type error.
/// - With no response at all (`head == nil`, e.g. the transport failed) there is nothing to check and validation
///   passes.
///
/// ```swift
/// var validation = ResponseValidation(acceptableContentTypes: ["application/json"])
/// validation.acceptableStatusCodes?.insert(304)
/// try validation.validate(head: head, data: body)
/// ```
public struct ResponseValidation: Sendable, Hashable {
    /// Status codes that pass; `nil` accepts every status. Default: 200–299.
    public var acceptableStatusCodes: Set<Int>?
    /// MIME types that pass, compared case-insensitively (e.g. `"application/json"`); `nil` accepts any.
    public var acceptableContentTypes: Set<String>?

    /// The status codes accepted by default: 200–299.
    public static let defaultAcceptableStatusCodes: Set<Int> = Set(200...299)

    /// Creates a validation; by default 2xx with any content type, as `AFHTTPResponseSerializer`.
    public init(
        acceptableStatusCodes: Set<Int>? = ResponseValidation.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<String>? = nil
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Checks `head` and `data` against the rules above.
    ///
    /// - Throws: ``ResponseSerializationError/unacceptableStatusCode(_:head:data:contentTypeError:)`` or
    ///   ``ResponseSerializationError/unacceptableContentType(_:head:data:)``.
    public func validate(head: HTTPResponseHead?, data: Data?) throws(ResponseSerializationError) {
        guard let head else { return }
        var contentTypeError: ResponseSerializationError?
        if let data, !data.isEmpty, !accepts(mimeType: head.mimeType) {
            contentTypeError = .unacceptableContentType(head.mimeType, head: head, data: data)
        }
        if let acceptableStatusCodes, !acceptableStatusCodes.contains(head.statusCode) {
            throw .unacceptableStatusCode(head.statusCode, head: head, data: data, contentTypeError: contentTypeError)
        }
        if let contentTypeError {
            throw contentTypeError
        }
    }

    /// Whether `mimeType` passes `acceptableContentTypes` (always, when that is `nil`; never for a missing type
    /// otherwise).
    public func accepts(mimeType: String?) -> Bool {
        guard let acceptableContentTypes else { return true }
        guard let mimeType else { return false }
        let normalized = mimeType.lowercased()
        return acceptableContentTypes.contains(normalized)
            || acceptableContentTypes.contains { $0.lowercased() == normalized }
    }

    /// Whether `statusCode` passes `acceptableStatusCodes`.
    public func accepts(statusCode: Int) -> Bool {
        acceptableStatusCodes?.contains(statusCode) ?? true
    }
}
