import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TapedeckCore
import TapedeckSession

/// A `URLProtocol` that sends a `URLSession`'s HTTP requests through an `HTTPTransport` (live libcurl, a cassette,
/// a stub server) instead of Foundation's own networking.
///
/// Do not list this class yourself: `URLSessionConfiguration.tapedeck(transport:base:cache:)` binds the transport
/// to a subclass, puts that subclass first in `protocolClasses`, and has the configuration carry the binding, so
/// that the transport is released with the last configuration or session that can use it.
///
/// ```swift
/// let session = URLSession(configuration: .tapedeck(transport: server.transport()))
/// let (data, response) = try await session.data(from: server.url("/get"))
/// ```
///
/// Every request goes through the same `SessionPipeline` as the client stack's, so what URLSession
/// does above the wire happens here too, hop by hop, and a cassette under the transport holds one interaction per hop
/// whichever door recorded it:
/// - **Redirects** are followed one hop at a time, up to 20 (URLSession's limit; one more fails with
///   `URLError.httpTooManyRedirects`). The task's delegate is asked first (`willPerformHTTPRedirection`, on the
///   session's `delegateQueue`): it may change the next request, or return `nil` to get the `3xx` itself. The final
///   URL is the `HTTPURLResponse`'s `url` (FoundationNetworking gives a protocol no way to update `currentRequest`).
/// - **Cookies** come from and go to the configuration's `httpCookieStorage` (when `httpShouldSetCookies` is on and
///   the request's `httpShouldHandleCookies` is), on every hop, under `httpCookieAcceptPolicy`.
/// - **Challenges** (`401`/`407`, Basic and Digest) go to the delegate's task-level `didReceive challenge`, and
///   default handling uses the configuration's `urlCredentialStorage`. A `401` nobody answered is delivered with its
///   `WWW-Authenticate` field renamed `X-Tapedeck-WWW-Authenticate`: FoundationNetworking would otherwise hang the
///   task, or send the request again around the transport.
/// - **The cache**: FoundationNetworking neither consults nor fills `urlCache` for a custom protocol; pass an
///   `HTTPCache` to `URLSessionConfiguration.tapedeck(transport:base:cache:)` for RFC 9111 caching
///   under the request's `cachePolicy` (with a cache, bodies reach the task whole, as the cache keeps them).
///
/// How requests and responses are mapped:
/// - method, URL, header fields and `timeoutInterval` (the transport's idle timeout) are copied; the body comes from `httpBody`, or from
///   `httpBodyStream` read to its end, or (FoundationNetworking) from the data or file an upload task was made with.
///   Upload progress reaches the delegate's `didSendBodyData`.
/// - The response's status, HTTP version and header fields become an `HTTPURLResponse` (repeated fields joined with
///   `", "`) as soon as the head arrives. For a task that calls its delegate the body reaches the delegate as it
///   arrives, one `didLoad` (`didReceive data`) per chunk, so streams and server-sent events see a cassette's
///   recorded chunk timing; a task made with a completion handler (`data(for:)` too) gets it in one `didLoad` at
///   the end, because FoundationNetworking keeps only the last one for such a task.
/// - A `URLError` from the transport reaches the task as it is (same code and `userInfo`); any other error becomes
///   `URLError(.unknown)` whose description is the error's and whose `NSUnderlyingErrorKey` is the error.
/// - Download tasks work on Apple platforms only: on Linux they fail with `URLError(.unsupportedURL)`, because
///   FoundationNetworking finishes a download task only from its own HTTP protocol (it reads a temporary-file
///   property only that protocol can set). Use a data task, or `SessionManager`'s download task, which streams
///   to a file over the same transport.
/// - Cancelling the task (`stopLoading`) cancels the transfer's Swift task; nothing is reported afterwards.
///
/// Client callbacks (`didReceive`, `didLoad`…, then `urlProtocolDidFinishLoading` or `didFailWithError`) are made in
/// that order, from the transport's events as they come, in the transfer's own task (never on `startLoading`'s
/// stack); a request that cannot be converted fails from the instance's serial queue.
///
/// URLProtocol is not Sendable: an instance's own state sits behind a lock, and its transfer task and callback
/// queue hold it weakly.
public class TransportURLProtocol: URLProtocol {
    /// The binding this instance's requests go through: the one its task's session carries, which must be bound to
    /// this instance's class (a class listed without its binding, by copying `protocolClasses` alone, gets none);
    /// when FoundationNetworking's layout hides the session, the one its class is bound to.
    private func binding(session: URLSession?) -> TransportBinding? {
        guard let session else { return TransportBinding.bound(to: type(of: self)) }
        guard let carried = TransportBinding.carried(by: session.configuration), carried.protocolClass == type(of: self) else {
            return nil
        }
        return carried
    }

    private let running = Locked<RunState>(RunState())
    private let callbackQueue = DispatchQueue(label: "Tapedeck.TransportURLProtocol")

    private struct RunState {
        var task: Task<Void, Never>?
        var stopped = false
    }

    /// `true` for `http` and `https` URLs.
    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// The request unchanged.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Starts the transfer on the bound transport.
    override public func startLoading() {
        let bridge = URLSessionDelegateBridge(task: task)
        guard let binding = binding(session: bridge.session) else {
            deliver(.failure(URLError(
                .unknown, failingURL: request.url,
                reason: "no transport is bound to \(type(of: self)): list it only in a configuration made by URLSessionConfiguration.tapedeck(transport:), which carries its transport (in connectionProxyDictionary: keep that entry)"
            )))
            return
        }
        #if canImport(FoundationNetworking)
        if task is URLSessionDownloadTask {
            // FoundationNetworking finishes a download task by force-unwrapping a temporary-file property of the
            // protocol that only its own HTTP protocol can set (`URLProtocol.properties`, internal): finishing one
            // from any other protocol crashes the process. Fail it cleanly instead.
            deliver(.failure(URLError(
                .unsupportedURL, failingURL: request.url,
                reason: "FoundationNetworking cannot finish a download task loaded by a custom URLProtocol; use a data task and write the data, or SessionManager's download task over the same transport"
            )))
            return
        }
        #endif
        var converted: HTTPRequest
        do {
            converted = try URLRequestConversion.httpRequest(
                from: request, uploadBody: uploadTaskBody(),
                extraHeaders: binding.additionalHeaders, defaultTimeout: binding.defaultTimeout
            )
        } catch {
            deliver(.failure(URLRequestConversion.urlError(from: error, url: request.url)))
            return
        }
        converted.redirectPolicy = .follow(maximum: Self.maximumRedirects)
        // The session cache keeps whole in-memory responses; without one the body streams.
        converted.responseBody = binding.cache == nil ? .stream : .memory
        let pipeline = Self.pipeline(for: binding, bridge: bridge)
        let transport = binding.transport
        let delivery = ResponseDelivery(owner: self, bridge: bridge, expectedUpload: converted.body.knownLength)
        let transfer = Task {
            let outcome: Result<HTTPResponse, URLError>
            do {
                outcome = .success(try await pipeline.send(converted, over: transport, onEvent: delivery.handle))
            } catch {
                outcome = .failure(URLRequestConversion.urlError(from: error, url: converted.url))
            }
            // Already off `startLoading`'s stack: report from here, without one more queue hop.
            delivery.finish(outcome)
        }
        let stoppedAlready = running.withLock { state in
            state.task = transfer
            return state.stopped
        }
        if stoppedAlready { transfer.cancel() }
    }

    /// How many redirects a task follows before it fails with `URLError.httpTooManyRedirects`: URLSession's limit
    /// (FoundationNetworking's, after Darwin's).
    public static let maximumRedirects = 20

    /// The session pipeline for one request: cookies and credentials from the task's session configuration (or the
    /// bound one), the task delegate deciding redirects and challenges.
    private static func pipeline(for binding: TransportBinding, bridge: URLSessionDelegateBridge) -> SessionPipeline {
        let configuration = bridge.session?.configuration ?? binding.configuration
        var pipeline = SessionPipeline(cookies: configuration.flatMap(HTTPCookieStorageJar.init(configuration:)), cache: binding.cache,
                                       recordedTimeListener: binding.recordedTimeListener)
        pipeline.redirectHandler = { head, proposed in await bridge.redirect(head, proposed: proposed) }
        pipeline.challengeHandler = { context in await bridge.challenge(context) }
        return pipeline
    }

    /// Cancels the transfer; the client hears nothing more from this instance.
    override public func stopLoading() {
        let transfer = running.withLock { state in
            state.stopped = true
            return state.task
        }
        transfer?.cancel()
    }

    /// Reports an outcome decided inside `startLoading`, from the callback queue (not on `startLoading`'s stack).
    private func deliver(_ outcome: Result<HTTPResponse, URLError>) {
        let owner = WeakProtocol(self)
        callbackQueue.async { owner.value?.report(outcome) }
    }

    /// Tells the client, in order, what came of a transfer whose head it has not heard of; nothing once the loading
    /// was stopped.
    fileprivate func report(_ outcome: Result<HTTPResponse, URLError>) {
        switch outcome {
        case .success(let response):
            tell { client in
                client.urlProtocol(self, didReceive: URLRequestConversion.urlResponse(from: response.head), cacheStoragePolicy: .notAllowed)
                if let data = URLRequestConversion.bodyData(of: response), !data.isEmpty {
                    client.urlProtocol(self, didLoad: data)
                }
                client.urlProtocolDidFinishLoading(self)
            }
        case .failure(let error):
            tell { $0.urlProtocol(self, didFailWithError: error) }
        }
    }

    /// Calls the client unless the loading was stopped.
    fileprivate func tell(_ body: (any URLProtocolClient) -> Void) {
        guard !running.withLock({ $0.stopped }), let client else { return }
        body(client)
    }

    /// The body an upload task was created with, which FoundationNetworking keeps in the task rather than in the
    /// request a protocol sees; `nil` elsewhere or when the request carries its body itself.
    private func uploadTaskBody() -> UploadBody? {
        #if canImport(FoundationNetworking)
        guard request.httpBody == nil, request.httpBodyStream == nil, let task = task as? URLSessionUploadTask else { return nil }
        return UploadBody.reflecting(task)
        #else
        return nil
        #endif
    }
}

/// Hands a transfer's events to URLSession as they come: the head as `didReceive`, each body chunk as `didLoad`,
/// upload progress to the delegate, and the end as `urlProtocolDidFinishLoading` or `didFailWithError`. A transport
/// that reported no head gets its whole response delivered at the end.
private final class ResponseDelivery: Sendable {
    private let owner: WeakProtocol
    private let bridge: URLSessionDelegateBridge
    private let expectedUpload: Int64
    private let state = Locked(State())

    private struct State {
        var headDelivered = false
        var chunksArrived = false
        var uploaded: Int64 = 0
        /// The body so far, for a task that must get it in one `didLoad`.
        var gathered = Data()
    }

    init(owner: TransportURLProtocol, bridge: URLSessionDelegateBridge, expectedUpload: Int64?) {
        self.owner = WeakProtocol(owner)
        self.bridge = bridge
        self.expectedUpload = expectedUpload ?? -1
    }

    var handle: HTTPEventHandler { { [self] event in receive(event) } }

    private func receive(_ event: HTTPTransportEvent) {
        guard let owner = owner.value else { return }
        switch event {
        case .responseHead(let head):
            state.withLock { $0.headDelivered = true }
            owner.tell { $0.urlProtocol(owner, didReceive: URLRequestConversion.urlResponse(from: head), cacheStoragePolicy: .notAllowed) }
        case .bodyChunk(let data):
            guard !data.isEmpty else { return }
            state.withLock { $0.chunksArrived = true }
            if bridge.streamsBody {
                owner.tell { $0.urlProtocol(owner, didLoad: data) }
            } else {
                state.withLock { $0.gathered.append(data) }
            }
        case .uploadProgress(let progress):
            let sent = state.withLock { state -> Int64 in
                defer { state.uploaded = progress.completed }
                return progress.completed - state.uploaded
            }
            bridge.sentBody(bytes: sent, total: progress.completed, expected: progress.total ?? expectedUpload)
        case .downloadProgress, .completed:
            break
        }
    }

    /// The transfer ended: finishes the load, or delivers the whole outcome when no head was heard of.
    func finish(_ outcome: Result<HTTPResponse, URLError>) {
        guard let owner = owner.value else { return }
        let (headDelivered, chunksArrived, gathered) = state.withLock { state in
            defer { state.gathered = Data() }
            return (state.headDelivered, state.chunksArrived, state.gathered)
        }
        if case .success(let response) = outcome, headDelivered {
            // A body kept in memory (with a cache, or by a transport that does not stream) arrives here whole.
            let body = chunksArrived ? gathered : URLRequestConversion.bodyData(of: response) ?? Data()
            owner.tell { client in
                if !body.isEmpty { client.urlProtocol(owner, didLoad: body) }
                client.urlProtocolDidFinishLoading(owner)
            }
        } else {
            owner.report(outcome)
        }
    }
}

/// A weak reference to a protocol instance, handed to the transfer's task and the callback queue. URLProtocol is not
/// Sendable; the instance's own state sits behind a lock and its client is called once per outcome, in order.
private struct WeakProtocol: @unchecked Sendable {
    weak var value: TransportURLProtocol?
    init(_ value: TransportURLProtocol) { self.value = value }
}
