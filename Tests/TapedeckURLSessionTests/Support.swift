import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TapedeckCore
import TapedeckURLSession

/// A session over `transport` that is invalidated by the caller.
func makeSession(_ transport: any HTTPTransport, base: URLSessionConfiguration = .ephemeral) -> URLSession {
    URLSession(configuration: .tapedeck(transport: transport, base: base))
}

/// The JSON object of an httpbin echo.
func echo(_ data: Data) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// The header fields of an httpbin echo, names lowercased.
func echoedHeaders(_ data: Data) throws -> [String: String] {
    let headers = try #require(try echo(data)["headers"] as? [String: Any])
    return Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), "\($0.value)") })
}

/// A transport that fails every request with `error`.
struct FailingTransport: HTTPTransport {
    let error: any Error
    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse { throw error }
}

struct NotAURLError: Error, CustomStringConvertible {
    var description: String { "the transport gave up" }
}

/// Runs a completion-handler data task and returns what the handler received.
func completionDataTask(_ session: URLSession, _ request: URLRequest) async -> (Data?, URLResponse?, (any Error)?) {
    await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            continuation.resume(returning: (data, response, error))
        }.resume()
    }
}

/// Records the delegate callbacks of a session, in order.
final class OrderRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `events` is behind a lock.
    let events = Locked<[String]>([])
    let done = AsyncStream<Void>.makeStream()

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        events.withLock { $0.append("response") }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        events.withLock { if $0.last != "data" { $0.append("data") } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        events.withLock { $0.append(error == nil ? "complete" : "failed") }
        done.continuation.yield()
    }
}
