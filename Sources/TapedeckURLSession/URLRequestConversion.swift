import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckCore

/// The body of an upload task, as FoundationNetworking keeps it.
enum UploadBody {
    case data(Data)
    case file(URL)
    case stream(InputStream)

    #if canImport(FoundationNetworking)
    /// The body `task` was created with. FoundationNetworking stores it in the task's internal `knownBody`
    /// (`_Body.data(DispatchData)`, `.file(URL)` or `.stream(InputStream)`) and never in the request a custom
    /// protocol is given; reflection is the only way to it. `nil` when that layout is not found.
    static func reflecting(_ task: URLSessionTask) -> UploadBody? {
        StoredProperty.value("knownBody", of: task).flatMap(body(fromKnownBody:))
    }

    private static func body(fromKnownBody value: Any) -> UploadBody? {
        // Optional<_Body> → _Body → the case's payload.
        var value = value
        let optional = Mirror(reflecting: value)
        if optional.displayStyle == .optional {
            guard let wrapped = optional.children.first?.value else { return nil }
            value = wrapped
        }
        guard let payload = Mirror(reflecting: value).children.first else { return nil }
        switch payload.value {
        case let data as DispatchData: return .data(Data(data))
        case let data as Data: return .data(data)
        case let url as URL: return .file(url)
        case let stream as InputStream: return .stream(stream)
        default: return nil
        }
    }
    #endif
}

/// URLRequest ⇄ HTTPRequest and HTTPResponse → HTTPURLResponse.
enum URLRequestConversion {
    /// `URLRequest`'s default `timeoutInterval`.
    static let defaultRequestTimeout: TimeInterval = 60

    /// `request` as a transport request; the body from `httpBody`, `httpBodyStream` (read to its end) or `uploadBody`;
    /// `extraHeaders` where the request lacks them; `defaultTimeout` when the request's timeout is the default.
    static func httpRequest(
        from request: URLRequest, uploadBody: UploadBody?, extraHeaders: [String: String] = [:], defaultTimeout: TimeInterval? = nil
    ) throws -> HTTPRequest {
        guard let url = request.url else { throw URLError(.badURL) }
        var headers = HTTPHeaders()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        for (name, value) in extraHeaders.sorted(by: { $0.key < $1.key }) where !headers.contains(name) {
            headers.add(name: name, value: value)
        }
        var body = HTTPRequestBody.none
        if let data = request.httpBody {
            body = .data(data)
        } else if let stream = request.httpBodyStream {
            body = .data(try readFully(stream, url: url))
        } else if let uploadBody {
            switch uploadBody {
            case .data(let data): body = .data(data)
            case .file(let file): body = .file(file)
            case .stream(let stream): body = .data(try readFully(stream, url: url))
            }
        }
        var timeout = request.timeoutInterval
        if let defaultTimeout, timeout == defaultRequestTimeout { timeout = defaultTimeout }
        var converted = HTTPRequest(
            method: HTTPMethod(request.httpMethod ?? (body.isEmpty ? "GET" : "POST")),
            url: url, headers: headers, body: body, timeoutInterval: timeout,
            shouldHandleCookies: request.httpShouldHandleCookies
        )
        converted.cachePolicy = cachePolicy(request.cachePolicy)
        return converted
    }

    /// `URLRequest`'s cache policy as the session cache reads it (the two `reloadIgnoring…` and
    /// `reloadRevalidatingCacheData` policies all skip the cache, as FoundationNetworking treats them).
    static func cachePolicy(_ policy: URLRequest.CachePolicy) -> CachePolicy {
        switch policy {
        case .useProtocolCachePolicy: .useProtocolCachePolicy
        case .returnCacheDataElseLoad: .returnCacheDataElseLoad
        case .returnCacheDataDontLoad: .returnCacheDataDontLoad
        default: .reloadIgnoringLocalCacheData
        }
    }

    /// Every byte of `stream`, which is opened and closed here.
    static func readFully(_ stream: InputStream, url: URL) throws -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
            if count > 0 {
                data.append(buffer, count: count)
            } else if count == 0 {
                return data
            } else {
                let reason = stream.streamError.map { "\($0)" } ?? "read failed"
                throw URLError(.unknown, failingURL: url, reason: "httpBodyStream: \(reason)")
            }
        }
    }

    /// The name a `401`'s `WWW-Authenticate` field is delivered under (see ``urlResponse(from:)``).
    static let unansweredChallengeField = "X-Tapedeck-WWW-Authenticate"

    /// The response head as Foundation's response; repeated fields are joined with `", "`.
    ///
    /// A `401` that reaches URLSession with a `WWW-Authenticate` field makes FoundationNetworking answer the
    /// challenge itself: with no credential the task never completes, and with one it sends the request again through
    /// its own HTTP protocol, around the transport (and so around a cassette). The session pipeline has already
    /// offered the challenge to the delegate and the credential storage, so a `401` delivered here is one nobody
    /// answered: its field is renamed ``unansweredChallengeField`` so that the task completes with it.
    static func urlResponse(from head: HTTPResponseHead) -> HTTPURLResponse {
        var fields: [String: String] = [:]
        var names: [String: String] = [:]  // lowercased → first spelling
        for field in head.headers {
            var key = field.name.lowercased()
            var spelling = field.name
            if head.statusCode == 401 && key == "www-authenticate" {
                spelling = unansweredChallengeField
                key = spelling.lowercased()
            }
            if let name = names[key] {
                fields[name] = (fields[name] ?? "") + ", " + field.value
            } else {
                names[key] = spelling
                fields[spelling] = field.value
            }
        }
        return HTTPURLResponse(url: head.url, statusCode: head.statusCode, httpVersion: head.version, headerFields: fields)
            ?? HTTPURLResponse(url: head.url, statusCode: head.statusCode, httpVersion: nil, headerFields: fields)!
    }

    /// `request` as Foundation's request, for a delegate to look at (a file or stream body is not shown).
    static func urlRequest(from request: HTTPRequest) -> URLRequest {
        var converted = URLRequest(url: request.url, timeoutInterval: request.timeoutInterval)
        converted.httpMethod = request.method.rawValue
        for field in request.headers { converted.addValue(field.value, forHTTPHeaderField: field.name) }
        if case .data(let data) = request.body { converted.httpBody = data }
        converted.httpShouldHandleCookies = request.shouldHandleCookies
        return converted
    }

    /// The request a delegate returned for a redirect, in place of `proposed`: its method, URL and header fields,
    /// its body if it has one, else `proposed`'s body when the method is unchanged.
    static func httpRequest(_ decided: URLRequest, replacing proposed: HTTPRequest) -> HTTPRequest {
        var next = proposed
        if let url = decided.url { next.url = url }
        let method = HTTPMethod(decided.httpMethod ?? proposed.method.rawValue)
        if method != proposed.method { next.body = .none }
        next.method = method
        var headers = HTTPHeaders()
        for (name, value) in (decided.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        next.headers = headers
        if let data = decided.httpBody { next.body = .data(data) }
        next.shouldHandleCookies = decided.httpShouldHandleCookies
        return next
    }

    /// The response body wherever the transport put it.
    static func bodyData(of response: HTTPResponse) -> Data? {
        switch response.body {
        case .data(let data): return data
        case .file(let url, _): return try? Data(contentsOf: url)
        case .streamed: return nil
        }
    }

    /// `error` as the task's error: a `URLError` as it is, anything else as `URLError(.unknown)` describing it.
    static func urlError(from error: any Error, url: URL?) -> URLError {
        if let error = error as? URLError { return error }
        var info: [String: Any] = [NSLocalizedDescriptionKey: "\(error)", NSUnderlyingErrorKey: error as NSError]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return URLError(.unknown, userInfo: info)
    }
}
