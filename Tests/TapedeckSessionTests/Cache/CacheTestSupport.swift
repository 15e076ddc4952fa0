import Foundation
@testable import TapedeckSession

/// A cache on a manual clock, and shorthands for the requests and responses the cache tests exchange with it.
/// Nothing is sent anywhere: responses are made up and handed to the cache as if they had just arrived.
struct CacheHarness {
    let clock: ManualWallClock
    let cache: HTTPCache

    init(memoryCapacity: Int = 1 << 20, diskCapacity: Int = 0, directory: URL? = nil, clock: ManualWallClock = ManualWallClock()) {
        self.clock = clock
        cache = HTTPCache(memoryCapacity: memoryCapacity, diskCapacity: diskCapacity, directory: directory, clock: clock)
    }

    static func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:8080\(path)")! }

    func request(_ path: String = "/a", method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: method, url: Self.url(path), headers: headers)
    }

    func response(_ status: Int = 200, _ headers: HTTPHeaders = [:], body: String = "body", path: String = "/a") -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(statusCode: status, reasonPhrase: status == 200 ? "OK" : "", headers: headers, url: Self.url(path)),
                     body: .data(Data(body.utf8)))
    }

    /// The response arrives now, `delay` seconds after the request left.
    @discardableResult
    func receive(_ response: HTTPResponse, for request: HTTPRequest, after lookup: CacheLookup = .miss, delay: TimeInterval = 0) -> HTTPResponse {
        cache.store(response, for: request, after: lookup, requestTime: clock.now.addingTimeInterval(-delay), responseTime: clock.now)
    }

    /// Stores a `200` with `headers` for `path` as if it arrived now.
    func prime(_ path: String, _ headers: HTTPHeaders, body: String = "body", requestHeaders: HTTPHeaders = [:]) {
        receive(response(200, headers, body: body, path: path), for: request(path, headers: requestHeaders))
    }

    /// Stores a `200` with `headers` for `/a` as if it arrived now.
    func prime(_ headers: HTTPHeaders, body: String = "body", requestHeaders: HTTPHeaders = [:]) {
        prime("/a", headers, body: body, requestHeaders: requestHeaders)
    }

    func lookup(_ path: String = "/a", headers: HTTPHeaders = [:], policy: CachePolicy = .useProtocolCachePolicy) -> CacheLookup {
        cache.lookup(request(path, headers: headers), policy: policy)
    }

    func advance(_ seconds: Int) { clock.advance(by: .seconds(seconds)) }

    /// `clock.now + offset` as an IMF-fixdate.
    func httpDate(_ offset: TimeInterval = 0) -> String { Self.httpDate(clock.now.addingTimeInterval(offset)) }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

extension CacheLookup {
    var hit: HTTPResponse? {
        if case .hit(let response) = self { return response }
        return nil
    }

    var conditionalRequest: HTTPRequest? {
        if case .validate(let request, _) = self { return request }
        return nil
    }

    var isMiss: Bool {
        if case .miss = self { return true }
        return false
    }

    var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }

    /// `hit`, `validate`, `miss` or `unavailable`, for readable expectations.
    var kind: String {
        switch self {
        case .hit: "hit"
        case .validate: "validate"
        case .miss: "miss"
        case .unavailable: "unavailable"
        }
    }
}

extension HTTPResponse {
    var text: String? { data.map { String(decoding: $0, as: UTF8.self) } }
}
