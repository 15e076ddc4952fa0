import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TapedeckCore

/// A `URLProtocol` that sends a `URLSession`'s HTTP requests through an ``HTTPTransport`` (live libcurl, a cassette,
/// a stub server) instead of Foundation's own networking.
///
/// Do not list this class yourself: ``Foundation/URLSessionConfiguration/tapedeck(transport:base:)`` registers the
/// transport and puts a subclass bound to it first in `protocolClasses`.
///
/// ```swift
/// let session = URLSession(configuration: .tapedeck(transport: server.transport()))
/// let (data, response) = try await session.data(from: server.url("/get"))
/// ```
///
/// How requests and responses are mapped:
/// - method, URL, header fields and `timeoutInterval` (the transport's idle timeout) are copied; the body comes from `httpBody`, or from
///   `httpBodyStream` read to its end, or (FoundationNetworking) from the data or file an upload task was made with.
/// - Redirects are followed by the transport (up to 16), and the final URL is the `HTTPURLResponse`'s `url`; the
///   session's delegate is not asked about them (`willPerformHTTPRedirection` is not called).
/// - The response's status, HTTP version and header fields become an `HTTPURLResponse` (repeated fields joined with
///   `", "`), and its body is delivered in one `didLoad`.
/// - A `URLError` from the transport reaches the task as it is (same code and `userInfo`); any other error becomes
///   `URLError(.unknown)` whose description is the error's and whose `NSUnderlyingErrorKey` is the error.
/// - Download tasks work on Apple platforms only: on Linux they fail with `URLError(.unsupportedURL)`, because
///   FoundationNetworking can finish a download task only from its own HTTP protocol.
/// - Cancelling the task (`stopLoading`) cancels the transfer's Swift task; nothing is reported afterwards.
///
/// Client callbacks (`didReceive`, `didLoad`, then `urlProtocolDidFinishLoading` or `didFailWithError`) are made in
/// that order, in one go: from the transfer's task when it ends, or from the instance's serial queue for an outcome
/// decided inside `startLoading` (never on its stack).
///
/// URLProtocol is not Sendable: an instance's own state sits behind a Mutex, and its transfer task and callback
/// queue hold it weakly.
public class TransportURLProtocol: URLProtocol {
    /// The transports of the bound subclasses, keyed by the subclass.
    private static let registry = Mutex<[ObjectIdentifier: Binding]>([:])
    private static let nextSlot = Mutex(1)

    /// A subclass of this class bound to `transport`: the class to put in a configuration's `protocolClasses`.
    ///
    /// Foundation creates protocol instances itself, so nothing can be handed to them; each call makes a distinct
    /// subclass (a generic class instantiated at a new type argument) and remembers the transport under it. The
    /// transport stays registered for the rest of the process.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.protocolClasses = [TransportURLProtocol.bound(to: CurlTransport())] + (configuration.protocolClasses ?? [])
    /// ```
    ///
    /// - Parameters:
    ///   - transport: where the requests go.
    ///   - additionalHeaders: fields added to every request that lacks them (a configuration's
    ///     `httpAdditionalHeaders`, which FoundationNetworking does not show a custom protocol).
    ///   - defaultTimeout: the idle timeout of a request whose `timeoutInterval` is still `URLRequest`'s default of
    ///     60 s (a configuration's `timeoutIntervalForRequest`, which FoundationNetworking does not apply to the
    ///     request a custom protocol sees); `nil` keeps 60 s.
    public static func bound(
        to transport: any HTTPTransport, additionalHeaders: [String: String] = [:], defaultTimeout: TimeInterval? = nil
    ) -> TransportURLProtocol.Type {
        let slot = nextSlot.withLock { slot in
            defer { slot += 1 }
            return slot
        }
        let boundClass = slotClass(slot)
        registry.withLock { $0[ObjectIdentifier(boundClass)] = Binding(
            transport: transport, additionalHeaders: additionalHeaders, defaultTimeout: defaultTimeout
        ) }
        return boundClass
    }

    private struct Binding {
        var transport: any HTTPTransport
        var additionalHeaders: [String: String]
        var defaultTimeout: TimeInterval?
    }

    /// The transport this instance's class is bound to.
    private var binding: Binding? {
        Self.registry.withLock { $0[ObjectIdentifier(type(of: self))] }
    }

    private let running = Mutex<RunState>(RunState())
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
        guard let binding else {
            deliver(.failure(URLError(.unknown, failingURL: request.url, reason: "no transport is bound to \(type(of: self))")))
            return
        }
        #if canImport(FoundationNetworking)
        if task is URLSessionDownloadTask {
            // FoundationNetworking finishes a download task by force-unwrapping a temporary-file property of the
            // protocol that only its own HTTP protocol can set (`URLProtocol.properties`, internal): finishing one
            // from any other protocol crashes the process. Fail it cleanly instead.
            deliver(.failure(URLError(
                .unsupportedURL, failingURL: request.url,
                reason: "FoundationNetworking cannot finish a download task loaded by a custom URLProtocol; use a data task and write the data"
            )))
            return
        }
        #endif
        let converted: HTTPRequest
        do {
            converted = try URLRequestConversion.httpRequest(
                from: request, uploadBody: uploadTaskBody(),
                extraHeaders: binding.additionalHeaders, defaultTimeout: binding.defaultTimeout
            )
        } catch {
            deliver(.failure(URLRequestConversion.urlError(from: error, url: request.url)))
            return
        }
        let transport = binding.transport
        let owner = WeakProtocol(self)
        let transfer = Task {
            let outcome: Result<HTTPResponse, URLError>
            do {
                outcome = .success(try await transport.send(converted, onEvent: nil))
            } catch {
                outcome = .failure(URLRequestConversion.urlError(from: error, url: converted.url))
            }
            // Already off `startLoading`'s stack: report from here, without one more queue hop.
            owner.value?.report(outcome)
        }
        let stoppedAlready = running.withLock { state in
            state.task = transfer
            return state.stopped
        }
        if stoppedAlready { transfer.cancel() }
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

    /// Tells the client, in order, what came of the transfer; nothing once the loading was stopped.
    private func report(_ outcome: Result<HTTPResponse, URLError>) {
        guard !running.withLock({ $0.stopped }), let client else { return }
        switch outcome {
        case .success(let response):
            client.urlProtocol(self, didReceive: URLRequestConversion.urlResponse(from: response), cacheStoragePolicy: .notAllowed)
            if let data = URLRequestConversion.bodyData(of: response), !data.isEmpty {
                client.urlProtocol(self, didLoad: data)
            }
            client.urlProtocolDidFinishLoading(self)
        case .failure(let error):
            client.urlProtocol(self, didFailWithError: error)
        }
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

/// A weak reference to a protocol instance, handed to the transfer's task and the callback queue. URLProtocol is not
/// Sendable; the instance's own state sits behind a Mutex and its client is called once per outcome, in order.
private struct WeakProtocol: @unchecked Sendable {
    weak var value: TransportURLProtocol?
    init(_ value: TransportURLProtocol) { self.value = value }
}

/// The type-level numbers that make one distinct subclass per bound transport.
private enum SlotEnd {}
private enum SlotBit0<Rest> {}
private enum SlotBit1<Rest> {}
private final class BoundTransportURLProtocol<Slot>: TransportURLProtocol {}

/// The subclass for `slot` (at least 1): its binary digits spelled as nested generic types.
private func slotClass(_ slot: Int) -> TransportURLProtocol.Type {
    func build<Rest>(_: Rest.Type, _ remaining: Int) -> TransportURLProtocol.Type {
        if remaining == 0 { return BoundTransportURLProtocol<Rest>.self }
        return remaining & 1 == 0 ? build(SlotBit0<Rest>.self, remaining >> 1) : build(SlotBit1<Rest>.self, remaining >> 1)
    }
    return build(SlotEnd.self, slot)
}
