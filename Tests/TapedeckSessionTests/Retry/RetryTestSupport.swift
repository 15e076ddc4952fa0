import Foundation
import TapedeckSession

/// Responses and requests for the retry tests, which run without I/O.
enum RetryFixture {
    static let url = URL(string: "http://127.0.0.1:9/items")!

    static func request(_ method: HTTPMethod = .get) -> HTTPRequest { HTTPRequest(method: method, url: url) }

    static func response(_ status: Int, _ headers: HTTPHeaders = [:], body: String = "") -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(statusCode: status, headers: headers, url: url), body: .data(Data(body.utf8)))
    }
}

extension RetryDecision {
    /// The delay of a `.retryAfter`, zero for `.retry`, `nil` when not retrying.
    var delay: Duration? {
        switch self {
        case .retry: return .zero
        case .retryAfter(let delay): return delay
        case .doNotRetry, .doNotRetryWithError: return nil
        }
    }

    var isDoNotRetry: Bool {
        if case .doNotRetry = self { return true }
        return false
    }
}
