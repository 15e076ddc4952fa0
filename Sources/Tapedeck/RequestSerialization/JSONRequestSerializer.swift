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
@dynamicMemberLookup
public struct JSONRequestSerializer: RequestSerializer, BodyParameterEncoding {
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

    /// Reads and writes ``base``'s properties, e.g. `serializer.defaultHeaders["X-Key"] = "1"`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<HTTPRequestSerializer, Value>) -> Value {
        get { base[keyPath: keyPath] }
        set { base[keyPath: keyPath] = newValue }
    }

    /// A new request with ``base``'s defaults applied and `parameters` serialized.
    ///
    /// - Throws: ``RequestSerializationError/invalidJSONParameters(url:underlying:)`` (code -1016) when the
    ///   parameters are not a JSON array or object or contain a NaN or infinite number.
    public func request(method: HTTPMethod, url: URL, parameters: JSONValue?) throws -> HTTPRequest {
        try serialize(base.makeRequest(method: method, url: url), parameters: parameters)
    }

    /// `request` with ``base``'s default headers added and `parameters` in its query (URI methods) or as a
    /// JSON body.
    ///
    /// - Throws: as ``request(method:url:parameters:)``.
    public func serialize(_ request: HTTPRequest, parameters: JSONValue?) throws -> HTTPRequest {
        try serializingBody(request, parameters: parameters)
    }

    /// Sends `Authorization: Basic …` with every request; see
    /// ``HTTPRequestSerializer/setAuthorization(username:password:)``.
    public mutating func setAuthorization(username: String, password: String) {
        base.setAuthorization(username: username, password: password)
    }

    /// Stops sending a default `Authorization` header.
    public mutating func clearAuthorization() {
        base.clearAuthorization()
    }
}

extension JSONRequestSerializer {
    var bodyContentType: String { "application/json" }

    func encodeBody(_ parameters: JSONValue, url: URL) throws -> Data {
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
