import Foundation
import Testing
import TapedeckCore
import TapedeckCurl
import TapedeckStubServer

/// Runs `body` with a started server and stops it afterwards.
func withServer<T>(
    _ configuration: StubServer.Configuration = .init(),
    _ body: (StubServer) async throws -> T
) async throws -> T {
    let server = try StubServer(configuration: configuration)
    defer { server.stop() }
    return try await body(server)
}

/// The `URLError` code `body` threw, or `nil` if it threw something else or nothing.
func thrownURLErrorCode(_ body: () async throws -> Void) async -> URLError.Code? {
    do {
        try await body()
        return nil
    } catch let error as URLError {
        return error.code
    } catch {
        return nil
    }
}

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
