import Foundation
import TapedeckCore

/// A transport that passes requests to `upstream` and records what happened to them: the requests, a signal as each
/// starts, and how each ended.
///
/// ```swift
/// let probe = ProbeTransport(upstream: server.transport())
/// let call = Task { try await probe.send(HTTPRequest(url: server.url("/slow"))) }
/// _ = await firstElement(of: probe.log.started.stream)
/// call.cancel()
/// #expect(await firstElement(of: probe.log.ended.stream) == .failure(URLError(.cancelled)))
/// ```
public struct ProbeTransport: HTTPTransport {
    /// Where the requests go.
    public let upstream: any HTTPTransport
    /// What happened.
    public let log = Log()

    /// What a ``ProbeTransport`` saw.
    public final class Log: Sendable {
        /// Every request, in the order they started.
        package let requests = Locked<[HTTPRequest]>([])
        /// How many requests ended with `URLError.cancelled`.
        package let cancelledErrors = Locked(0)
        /// One element as each request starts.
        public let started = AsyncStream<Void>.makeStream()
        /// One element as each request ends: its status code, or the `URLError` it threw.
        public let ended = AsyncStream<Result<Int, URLError>>.makeStream()
    }

    /// A probe in front of `upstream`.
    public init(upstream: any HTTPTransport) {
        self.upstream = upstream
    }

    public func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        log.requests.withLock { $0.append(request) }
        log.started.continuation.yield()
        do {
            let response = try await upstream.send(request, onEvent: onEvent)
            log.ended.continuation.yield(.success(response.statusCode))
            return response
        } catch let error as URLError {
            if error.code == .cancelled { log.cancelledErrors.withLock { $0 += 1 } }
            log.ended.continuation.yield(.failure(error))
            throw error
        }
    }
}
