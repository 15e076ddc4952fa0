import Foundation

/// The base request serializer (AFNetworking's `AFHTTPRequestSerializer`): default headers, a timeout, and
/// parameters encoded as a query string or an `application/x-www-form-urlencoded` body.
///
/// For methods in ``methodsEncodingParametersInURI`` (`GET`, `HEAD`, `DELETE`) the parameters are appended to the
/// URL's query (after an existing query, joined with `&`; nothing is appended when they flatten to nothing). For
/// any other method they become the body, with `Content-Type: application/x-www-form-urlencoded` unless the
/// request already has a `Content-Type`; without parameters that body is empty, as in AFNetworking.
///
/// Fresh serializers send `Accept-Language` (from the preferred languages, see
/// ``acceptLanguage(for:)``) and `User-Agent` (``defaultUserAgent``, `"Tapedeck/1.0.0 (Linux; Swift)"` on Linux) as
/// default headers. Default headers never replace a field the request already has.
///
/// ```swift
/// var serializer = HTTPRequestSerializer()
/// serializer.defaultHeaders["X-Client"] = "docs"
/// serializer.setAuthorization(username: "user", password: "pass")
/// let get = try serializer.request(method: .get, url: URL(string: "http://127.0.0.1:8080/get")!,
///                                  parameters: ["q": "a b", "page": 2])
/// // get.url: http://127.0.0.1:8080/get?page=2&q=a%20b
/// let post = try serializer.request(method: .post, url: URL(string: "http://127.0.0.1:8080/post")!,
///                                   parameters: ["key": "value"])
/// // post.body: .data("key=value"), Content-Type: application/x-www-form-urlencoded
/// ```
public struct HTTPRequestSerializer: RequestSerializer {
    /// Headers added to every request that lacks a field of the same name. Starts with `Accept-Language` and
    /// `User-Agent`; set a name to `nil` to stop sending it.
    public var defaultHeaders: HTTPHeaders

    /// Methods whose parameters go into the URL's query rather than the body. Compared after uppercasing the
    /// request's method. Default `GET`, `HEAD`, `DELETE`.
    public var methodsEncodingParametersInURI: Set<HTTPMethod>

    /// The idle timeout given to requests this serializer creates (`HTTPRequest/timeoutInterval`). Default 60.
    public var timeoutInterval: TimeInterval
    /// Whether requests this serializer creates use the session's cookies (`HTTPRequest/shouldHandleCookies`,
    /// AFNetworking's `HTTPShouldHandleCookies`). Default `true`.
    public var shouldHandleCookies: Bool = true
    /// The cache policy of requests this serializer creates (`HTTPRequest/cachePolicy`). Default
    /// `.useProtocolCachePolicy`.
    public var cachePolicy: CachePolicy = .useProtocolCachePolicy

    /// A replacement for the built-in query-string encoding (AFNetworking's
    /// `setQueryStringSerializationWithBlock:`). It receives the request as passed in and the parameters, and
    /// returns the query string or form body; what it throws aborts the request as
    /// ``RequestSerializationError/queryStringSerializationFailed(url:underlying:)``. Called only when there are
    /// parameters. `nil` (the default) uses ``QueryStringEncoding/queryString(from:)``.
    public var queryStringSerialization: (@Sendable (HTTPRequest, JSONValue) throws -> String)?

    /// Creates a serializer.
    ///
    /// - Parameters:
    ///   - preferredLanguages: the languages for `Accept-Language`, most preferred first (default: the user's);
    ///     an empty list sends no `Accept-Language`.
    ///   - userAgent: the `User-Agent` value, or `nil` to send none. Default ``defaultUserAgent``.
    public init(preferredLanguages: [String] = Locale.preferredLanguages, userAgent: String? = defaultUserAgent) {
        var headers = HTTPHeaders()
        if let acceptLanguage = Self.acceptLanguage(for: preferredLanguages) {
            headers["Accept-Language"] = acceptLanguage
        }
        if let userAgent {
            headers["User-Agent"] = userAgent
        }
        self.defaultHeaders = headers
        self.methodsEncodingParametersInURI = [.get, .head, .delete]
        self.timeoutInterval = 60
        self.queryStringSerialization = nil
    }

    /// Whether `method`'s parameters go into the URL query (its uppercased form is in
    /// ``methodsEncodingParametersInURI``).
    public func encodesParametersInURI(_ method: HTTPMethod) -> Bool {
        methodsEncodingParametersInURI.contains(HTTPMethod(method.rawValue.uppercased()))
    }

    /// A request for `method` and `url` carrying the serializer's request-level settings (the timeout), before
    /// any header or parameter is applied.
    public func makeRequest(method: HTTPMethod, url: URL) -> HTTPRequest {
        HTTPRequest(method: method, url: url, timeoutInterval: timeoutInterval, shouldHandleCookies: shouldHandleCookies,
                    cachePolicy: cachePolicy)
    }

    /// A new request with the defaults applied and `parameters` in its query or body.
    ///
    /// - Throws: ``RequestSerializationError/queryStringSerializationFailed(url:underlying:)`` when the custom
    ///   closure throws, ``RequestSerializationError/invalidURLString(_:)`` when the custom closure's query makes
    ///   the URL unparsable.
    public func request(method: HTTPMethod, url: URL, parameters: JSONValue?) throws -> HTTPRequest {
        try serialize(makeRequest(method: method, url: url), parameters: parameters)
    }

    /// `request` with the default headers added and `parameters` in its query or body.
    ///
    /// - Throws: as ``request(method:url:parameters:)``.
    public func serialize(_ request: HTTPRequest, parameters: JSONValue?) throws -> HTTPRequest {
        var result = applyingDefaultHeaders(to: request)
        let query = try queryString(for: request, parameters: parameters)
        if encodesParametersInURI(request.method) {
            if let query, !query.isEmpty {
                result.url = try Self.url(result.url, appendingQuery: query)
            }
        } else {
            if !result.headers.contains("Content-Type") {
                result.headers["Content-Type"] = "application/x-www-form-urlencoded"
            }
            result.body = .data(Data((query ?? "").utf8))
        }
        return result
    }

    /// `request` with every default header whose name the request lacks appended, in the defaults' order.
    public func applyingDefaultHeaders(to request: HTTPRequest) -> HTTPRequest {
        var result = request
        if request.headers.isEmpty {
            result.headers = defaultHeaders  // the common case: shares the defaults' storage, nothing copied
            return result
        }
        for field in defaultHeaders where !request.headers.contains(field.name) {
            result.headers.add(name: field.name, value: field.value)
        }
        return result
    }

    private func queryString(for request: HTTPRequest, parameters: JSONValue?) throws -> String? {
        guard let parameters else { return nil }
        guard let queryStringSerialization else { return QueryStringEncoding.queryString(from: parameters) }
        do {
            return try queryStringSerialization(request, parameters)
        } catch {
            throw RequestSerializationError.queryStringSerializationFailed(url: request.url, underlying: error)
        }
    }

    /// `url` with `query` added to its query (`?query`, or `&query` after an existing one), before any fragment.
    static func url(_ url: URL, appendingQuery query: String) throws -> URL {
        let absolute = url.absoluteString
        let fragmentStart = absolute.utf8.firstIndex(of: UInt8(ascii: "#")) ?? absolute.endIndex
        // A '?' before the fragment starts the query (none can appear earlier in an absolute URL).
        let separator = absolute.utf8[..<fragmentStart].contains(UInt8(ascii: "?")) ? "&" : "?"
        var composed = String(absolute[..<fragmentStart])
        composed.reserveCapacity(absolute.utf8.count + query.utf8.count + 1)
        composed += separator
        composed += query
        composed += absolute[fragmentStart...]
        guard let result = URL(string: composed) else {
            throw RequestSerializationError.invalidURLString(composed)
        }
        return result
    }
}
