import Foundation

/// Why a response serializer refused a response: its validation failed or its body could not be decoded.
///
/// The error bridges to `NSError` (`CustomNSError`) with a stable domain, codes and `userInfo`, so code written
/// against AFNetworking's `AFURLResponseSerializationErrorDomain` reads the same facts.
///
/// Domain: `com.tapedeck.error.serialization.response` (``errorDomain``). Codes (`NSURLErrorDomain` values, as
/// AFNetworking uses):
///
/// | case | code |
/// |---|---|
/// | `unacceptableStatusCode` | -1011 `NSURLErrorBadServerResponse` |
/// | `unacceptableContentType` | -1016 `NSURLErrorCannotDecodeContentData` |
/// | `decodingFailed` | -1016 `NSURLErrorCannotDecodeContentData` |
/// | `emptyBody` | -1014 `NSURLErrorZeroByteResource` |
///
/// | `userInfo` key | value | present |
/// |---|---|---|
/// | `NSLocalizedDescriptionKey` | AFNetworking's wording, see below | always |
/// | `NSLocalizedFailureReasonErrorKey` | the underlying error's description | `decodingFailed` |
/// | `NSURLErrorFailingURLErrorKey` | the response's `URL` | when there was a response |
/// | `ResponseSerializationError.responseKey` | the `HTTPResponseHead` | when there was a response |
/// | `ResponseSerializationError.dataKey` | the body as `Data` | when there was a body |
/// | `NSUnderlyingErrorKey` | the wrapped error as `NSError`, below | when there is one |
///
/// Descriptions: `Request failed: not found (404)` (Apple's status text, on every platform),
/// `Request failed: unacceptable content-type: text/html` (`(none)` without a `Content-Type`),
/// `The response is not valid JSON.`, `Data failed decoding as a UTF-8 string`,
/// `The response has no body to decode as User (status 204).`
///
/// Underlying errors: a status error wraps the content-type error when both failed (as AFNetworking does);
/// `decodingFailed` wraps the `JSONSerialization`, `XMLParser` (`NSXMLParserErrorDomain`),
/// `PropertyListSerialization` or `DecodingError` error, or for text a `CocoaError`
/// (`.fileReadInapplicableStringEncoding`).
///
/// ```swift
/// do {
///     _ = try JSONResponseSerializer().serialize(head: head, data: body)
/// } catch let error as ResponseSerializationError {
///     let nsError = error as NSError
///     print(nsError.domain, nsError.code)  // com.tapedeck.error.serialization.response -1011
///     print(error.head?.statusCode as Any) // Optional(404)
/// }
/// ```
public enum ResponseSerializationError: Error, Sendable {
    /// The status code is not in `ResponseValidation.acceptableStatusCodes`. When the content type was unacceptable
    /// as well, that error is `contentTypeError` and is bridged as `NSUnderlyingErrorKey`.
    indirect case unacceptableStatusCode(
        Int,
        head: HTTPResponseHead,
        data: Data?,
        contentTypeError: ResponseSerializationError?
    )
    /// The body is not empty and its MIME type (`nil` when the response had no `Content-Type`) is not in
    /// `ResponseValidation.acceptableContentTypes`.
    case unacceptableContentType(String?, head: HTTPResponseHead, data: Data)
    /// The body passed validation but is not valid in `format`; `underlying` says why.
    case decodingFailed(BodyFormat, head: HTTPResponseHead?, data: Data?, underlying: any Error)
    /// A body was needed to produce a value of type `expected`, and the response had none (e.g. a 204, or a
    /// reply to `HEAD`).
    case emptyBody(expected: String, head: HTTPResponseHead?)

    /// What a body was being decoded as when `decodingFailed` happened.
    public enum BodyFormat: Sendable, Hashable {
        /// JSON through `JSONSerialization`.
        case json
        /// XML through `XMLParser`.
        case xml
        /// A property list (XML or binary) through `PropertyListSerialization`.
        case propertyList
        /// A `Decodable` type, named here, through a `JSONDecoder`.
        case decodable(typeName: String)
        /// Text in this character encoding.
        case string(String.Encoding)
    }
}

extension ResponseSerializationError {
    /// The error domain: `"com.tapedeck.error.serialization.response"`.
    public static let errorDomain = "com.tapedeck.error.serialization.response"
    /// `userInfo` key of the `HTTPResponseHead` that failed
    /// (AFNetworking's `AFNetworkingOperationFailingURLResponseErrorKey`).
    public static let responseKey = "com.tapedeck.serialization.response.error.response"
    /// `userInfo` key of the body `Data` that failed
    /// (AFNetworking's `AFNetworkingOperationFailingURLResponseDataErrorKey`).
    public static let dataKey = "com.tapedeck.serialization.response.error.data"

    /// The response that failed, when there was one.
    public var head: HTTPResponseHead? {
        switch self {
        case .unacceptableStatusCode(_, let head, _, _), .unacceptableContentType(_, let head, _): return head
        case .decodingFailed(_, let head, _, _), .emptyBody(_, let head): return head
        }
    }

    /// The body that failed, when there was one.
    public var data: Data? {
        switch self {
        case .unacceptableStatusCode(_, _, let data, _), .decodingFailed(_, _, let data, _): return data
        case .unacceptableContentType(_, _, let data): return data
        case .emptyBody: return nil
        }
    }

    /// The URL that answered, when there was a response.
    public var failingURL: URL? { head?.url }

    /// The error this one wraps: the content-type error inside a status error, or the parser's or decoder's error.
    public var underlyingError: (any Error)? {
        switch self {
        case .unacceptableStatusCode(_, _, _, let contentTypeError): return contentTypeError
        case .decodingFailed(_, _, _, let underlying): return underlying
        case .unacceptableContentType, .emptyBody: return nil
        }
    }

    /// Whether this error, or the error it wraps, is an unacceptable content type (AFNetworking checks this to
    /// decide that a body must not be parsed).
    public var isUnacceptableContentType: Bool {
        switch self {
        case .unacceptableContentType: return true
        case .unacceptableStatusCode(_, _, _, let contentTypeError): return contentTypeError != nil
        case .decodingFailed, .emptyBody: return false
        }
    }
}
