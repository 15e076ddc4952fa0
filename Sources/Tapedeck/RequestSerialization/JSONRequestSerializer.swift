import Foundation

/// A request serializer that sends parameters as a JSON body (AFNetworking's `AFJSONRequestSerializer`).
///
/// Methods in ``HTTPRequestSerializer/methodsEncodingParametersInURI`` (`GET`, `HEAD`, `DELETE`) still put the
/// parameters in the query string, exactly as ``HTTPRequestSerializer`` does. Otherwise, when there are parameters,
/// the body is `JSONSerialization` output of `parameters.foundationObject` and `Content-Type` is
/// `application/json` unless the request already has one; without parameters the body is left alone.
///
/// Object keys are written sorted (``sortsKeys``), so the same parameters give the same bytes in every process:
/// Swift seeds dictionary order per process, and a body that changed from run to run would churn re-recorded
/// cassettes and break exact body matching. AFNetworking writes them in dictionary order; set ``sortsKeys`` to
/// `false` for that.
///
/// Everything else (default headers, timeout, URI methods) comes from ``base``, whose properties can also be
/// set directly on this serializer.
///
/// ```swift
/// var serializer = JSONRequestSerializer()
/// serializer.timeoutInterval = 10
/// let request = try serializer.request(method: .post, url: URL(string: "http://127.0.0.1:8080/post")!,
///                                      parameters: ["key": "value"])
/// // body {"key":"value"}, Content-Type: application/json
/// ```
public struct JSONRequestSerializer: BodyParameterEncoding {
    /// The default headers, timeout, URI methods and query encoding this serializer shares with
    /// ``HTTPRequestSerializer``.
    public var base: HTTPRequestSerializer
    /// Options for `JSONSerialization` (e.g. `.prettyPrinted`). Default none, as AFNetworking.
    public var writingOptions: JSONSerialization.WritingOptions
    /// Whether object keys are written sorted, whatever ``writingOptions`` says (default `true`).
    public var sortsKeys: Bool

    /// Creates a serializer.
    public init(
        base: HTTPRequestSerializer = HTTPRequestSerializer(),
        writingOptions: JSONSerialization.WritingOptions = [],
        sortsKeys: Bool = true
    ) {
        self.base = base
        self.writingOptions = writingOptions
        self.sortsKeys = sortsKeys
    }
}

extension JSONRequestSerializer {
    /// The `Content-Type` of the body: `application/json`.
    public var bodyContentType: String { "application/json" }

    /// `parameters` as JSON.
    ///
    /// - Throws: ``RequestSerializationError/invalidJSONParameters(url:underlying:)`` (code -1016) when the
    ///   parameters are not a JSON array or object or contain a NaN or infinite number.
    public func encodeBody(_ parameters: JSONValue, url: URL) throws -> Data {
        let object = parameters.foundationObject
        guard JSONSerialization.isValidJSONObject(object) else {
            throw RequestSerializationError.invalidJSONParameters(url: url, underlying: nil)
        }
        do {
            return try JSONSerialization.data(withJSONObject: object, options: sortsKeys ? writingOptions.union(.sortedKeys) : writingOptions)
        } catch {
            throw RequestSerializationError.invalidJSONParameters(url: url, underlying: error)
        }
    }
}
