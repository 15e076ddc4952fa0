import Foundation

/// Why a request serializer could not build a request.
///
/// Every case bridges to an `NSError` in the domain ``errorDomain``
/// (`"com.tapedeck.error.serialization.request"`). Codes that AFNetworking defines for the same failure keep
/// AFNetworking's value; failures AFNetworking reports with another domain keep that domain's code; failures
/// AFNetworking only asserts on get small positive Tapedeck codes. The codes are stable:
///
/// | case | code | constant the code comes from |
/// |---|---|---|
/// | ``invalidJSONParameters(url:underlying:)`` | -1016 | `NSURLErrorCannotDecodeContentData`, as AFNetworking |
/// | ``fileNotReadable(fileURL:underlying:)`` | -1000 | `NSURLErrorBadURL`, as AFNetworking's `appendPartWithFileURL` |
/// | ``invalidPropertyListParameters(url:underlying:)`` | 3851 | `NSPropertyListWriteStreamError` (Foundation) |
/// | ``multipartNotAllowed(method:url:)`` | 1 | Tapedeck (AFNetworking asserts) |
/// | ``queryStringSerializationFailed(url:underlying:)`` | 2 | Tapedeck (AFNetworking returns the closure's error) |
/// | ``invalidURLString(_:)`` | 3 | Tapedeck (AFNetworking asserts) |
/// | ``bodyPartLengthMismatch(declared:produced:)`` | 4 | Tapedeck |
///
/// `userInfo` always carries `NSLocalizedDescriptionKey` and `NSLocalizedFailureReasonErrorKey`; the failing request
/// URL sits under `NSURLErrorFailingURLErrorKey` where there is one, an unreadable file's path under
/// `NSFilePathErrorKey`, and a wrapped error under `NSUnderlyingErrorKey`.
///
/// ```swift
/// do {
///     _ = try JSONRequestSerializer().request(method: .post, url: url, parameters: .number(.nan))
/// } catch let error as RequestSerializationError {
///     let nsError = error as NSError
///     // nsError.domain == RequestSerializationError.errorDomain, nsError.code == -1016
/// }
/// ```
public enum RequestSerializationError: Error, Sendable {
    /// The parameters cannot be written as JSON: the top level is not an array or object, or a number is NaN or
    /// infinite. Code -1016.
    case invalidJSONParameters(url: URL, underlying: (any Error)?)
    /// The parameters cannot be written as a property list (for example, they contain `null`). Code 3851.
    case invalidPropertyListParameters(url: URL, underlying: (any Error)?)
    /// A multipart body was requested for `GET` or `HEAD`, which carry no body. Code 1.
    case multipartNotAllowed(method: HTTPMethod, url: URL)
    /// A file part cannot be read: not a file URL, missing, a directory, or unreadable. Code -1000.
    case fileNotReadable(fileURL: URL, underlying: (any Error)?)
    /// The custom query-string closure threw `underlying`. Code 2.
    case queryStringSerializationFailed(url: URL, underlying: any Error)
    /// The string is not a URL. Code 3.
    case invalidURLString(String)
    /// A multipart part produced a different number of bytes than it declared when it was appended (a stream
    /// part's length was wrong, or a file changed size), so the body would contradict its `Content-Length`.
    /// `produced` counts the bytes seen before the mismatch was noticed. Code 4.
    case bodyPartLengthMismatch(declared: Int64, produced: Int64)
}

extension RequestSerializationError: CustomNSError {
    /// The stable error domain, `"com.tapedeck.error.serialization.request"`.
    public static let errorDomain = "com.tapedeck.error.serialization.request"

    /// The stable code of this case; see the table on ``RequestSerializationError``.
    public var errorCode: Int {
        switch self {
        case .invalidJSONParameters: return -1016
        case .invalidPropertyListParameters: return 3851
        case .multipartNotAllowed: return 1
        case .fileNotReadable: return -1000
        case .queryStringSerializationFailed: return 2
        case .invalidURLString: return 3
        case .bodyPartLengthMismatch: return 4
        }
    }

    /// The description, failure reason, failing URL, file path and underlying error, as the type's table lists.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: errorDescription ?? "",
            NSLocalizedFailureReasonErrorKey: failureReason ?? "",
        ]
        if let failingURL {
            userInfo[NSURLErrorFailingURLErrorKey] = failingURL
        }
        if case .fileNotReadable(let fileURL, _) = self {
            userInfo[NSFilePathErrorKey] = fileURL.path
        }
        if let underlyingError {
            userInfo[NSUnderlyingErrorKey] = underlyingError as NSError
        }
        return userInfo
    }
}

extension RequestSerializationError: LocalizedError {
    /// A one-line description for people.
    public var errorDescription: String? {
        switch self {
        case .invalidJSONParameters, .invalidPropertyListParameters, .queryStringSerializationFailed:
            return "The request parameters could not be serialized."
        case .multipartNotAllowed, .fileNotReadable, .bodyPartLengthMismatch:
            return "The multipart form body could not be built."
        case .invalidURLString:
            return "The URL string is not a valid URL."
        }
    }

    /// Why it failed; AFNetworking's wording where AFNetworking has one.
    public var failureReason: String? {
        switch self {
        case .invalidJSONParameters:
            return "The `parameters` argument is not valid JSON."
        case .invalidPropertyListParameters:
            return "The `parameters` argument is not a valid property list."
        case .multipartNotAllowed(let method, _):
            return "A \(method.rawValue) request cannot carry a multipart form body."
        case .fileNotReadable(let fileURL, _):
            return fileURL.isFileURL ? "File URL not reachable." : "Expected URL to be a file URL"
        case .queryStringSerializationFailed:
            return "The custom query string serialization failed."
        case .invalidURLString(let string):
            return "\"\(string)\" cannot be parsed as a URL."
        case .bodyPartLengthMismatch(let declared, let produced):
            return "A body part declared \(declared) bytes but produced \(produced)."
        }
    }
}

extension RequestSerializationError {
    /// The URL of the request that could not be built, when there is one.
    public var failingURL: URL? {
        switch self {
        case .invalidJSONParameters(let url, _), .invalidPropertyListParameters(let url, _),
            .multipartNotAllowed(_, let url), .queryStringSerializationFailed(let url, _):
            return url
        case .fileNotReadable, .invalidURLString, .bodyPartLengthMismatch:
            return nil
        }
    }

    /// The error this one wraps, when there is one.
    public var underlyingError: (any Error)? {
        switch self {
        case .invalidJSONParameters(_, let underlying), .invalidPropertyListParameters(_, let underlying),
            .fileNotReadable(_, let underlying):
            return underlying
        case .queryStringSerializationFailed(_, let underlying):
            return underlying
        case .multipartNotAllowed, .invalidURLString, .bodyPartLengthMismatch:
            return nil
        }
    }
}
