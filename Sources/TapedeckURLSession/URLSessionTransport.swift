import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TapedeckCore

/// A live transport over Foundation's own `URLSession`: the way to record a cassette when libcurl's headers are not
/// installed (it is the recorder of `.cassette(…)` when Tapedeck is used without its `Curl` trait).
///
/// Like every transport it only moves bytes: it follows no redirect (a `3xx` comes back as it is), answers no
/// authentication challenge (the `401` comes back), and keeps no cookies and no cache, so that the session pipeline
/// above it (or the cassette) sees each hop as it happened.
///
/// ```swift
/// let recorder = URLSessionTransport()
/// let cassette = try CassetteTransport(cassette: url, mode: .once, upstream: recorder)
/// let session = URLSession(configuration: .tapedeck(transport: cassette))
/// let (data, _) = try await session.data(from: URL(string: "https://api.example.com/v1/me")!)
/// ```
///
/// What URLSession does not expose is not recorded: repeated header fields arrive joined with `", "` (cookies
/// included), the reason phrase is empty and the version is reported as `HTTP/1.1`, a compressed body arrives
/// decoded, on Linux a `401`/`407` that carries a challenge arrives without its body (FoundationNetworking stops the
/// transfer to offer the challenge), and TLS settings other than the default (extra anchors, pinning, a trust policy, turning verification
/// off) are refused with `URLError.secureConnectionFailed`; use `CurlTransport` for those.
public final class URLSessionTransport: HTTPTransport {
    private let configuration: URLSessionConfiguration
    private let transfers = URLSessionTransfers()
    /// Made on the first request, so that a recorder that never records costs nothing.
    private let session = Mutex<URLSession?>(nil)

    /// Creates a transport over a session made from `configuration` (by default `.ephemeral`) with its cookie store,
    /// cache and credential storage removed.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let copy = configuration.copy() as! URLSessionConfiguration
        copy.httpCookieStorage = nil
        copy.httpShouldSetCookies = false
        copy.urlCache = nil
        copy.urlCredentialStorage = nil
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.configuration = copy
    }

    deinit {
        // The last reference may go on one of FoundationNetworking's own queues (the door's configuration that held
        // this transport going away there), and invalidating waits for the session's queue: done elsewhere.
        guard let session = session.withLock({ $0 }) else { return }
        DispatchQueue.global().async { session.invalidateAndCancel() }
    }

    /// Sends `request` once through Foundation's URLSession (no redirect followed, no cookie, cache or credential
    /// store), reporting the response head and body chunks to `onEvent`; failures are `URLError`s.
    public func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        guard request.tls == .default else {
            throw URLError(
                .secureConnectionFailed, failingURL: request.url,
                reason: "URLSessionTransport cannot apply TLSSettings other than the default (extra anchors, pinning, "
                    + "a trust policy, verification off); use CurlTransport for \(request.url.host ?? "this host")")
        }
        try Task.checkCancellation()
        let transfer = try URLSessionTransfer(request: request, onEvent: onEvent)
        let task = try await makeTask(for: request)
        transfers.insert(transfer, for: task.taskIdentifier)
        // A Dispatch timer, not a task: the limit holds however busy Swift's cooperative threads are.
        let watchdog = request.totalTimeout.map { limit in
            let work = DispatchWorkItem {
                transfer.markTimedOut()
                task.cancel()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: work)
            return work
        }
        defer { watchdog?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    private func makeTask(for request: HTTPRequest) async throws -> URLSessionTask {
        let session = session.withLock { session in
            if let session { return session }
            let made = URLSession(configuration: configuration, delegate: URLSessionTransportDelegate(transfers: transfers), delegateQueue: nil)
            session = made
            return made
        }
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeoutInterval)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        switch request.body {
        case .none: return session.dataTask(with: urlRequest)
        case .data(let data): return session.uploadTask(with: urlRequest, from: data)
        case .file(let file): return session.uploadTask(with: urlRequest, fromFile: file)
        case .stream(let stream):
            var data = Data()
            for try await chunk in stream.makeChunks() { data.append(chunk) }
            return session.uploadTask(with: urlRequest, from: data)
        }
    }
}

/// The transfers in flight, by task identifier, for the session's delegate to find.
final class URLSessionTransfers: Sendable {
    private let byTask = Mutex<[Int: URLSessionTransfer]>([:])

    func insert(_ transfer: URLSessionTransfer, for task: Int) { byTask.withLock { $0[task] = transfer } }
    func find(_ task: Int) -> URLSessionTransfer? { byTask.withLock { $0[task] } }
    func remove(_ task: Int) -> URLSessionTransfer? { byTask.withLock { $0.removeValue(forKey: task) } }
}
