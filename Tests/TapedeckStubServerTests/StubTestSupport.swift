import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// A request with a body.
func request(_ method: HTTPMethod, _ path: String, query: String? = nil, headers: HTTPHeaders = [:], body: String = "") -> RecordedRequest {
    RecordedRequest(method: method, path: path, query: query, headers: headers, body: Data(body.utf8))
}

extension HTTPResponse {
    /// The body as UTF-8 text.
    var text: String { String(decoding: data ?? Data(), as: UTF8.self) }
}

/// The suites that open sockets run one test at a time, so the 2-core machine is not flooded.
@Suite(.serialized) enum OnLoopback {}
