import Foundation

/// What `NSURLSession` does above the wire, in one place that every door uses: `HTTPSessionManager`, the URLSession
/// adapter, the OpenAPI client transport, ``SessionTransport`` and `tapedeck fetch`.
///
/// A request takes one path to its response:
/// 1. The ``interceptor`` adapts the request; after a failure its retrier may send it again, after a delay waited on
///    ``clock``.
/// 2. Each hop is one exchange: the request gets the ``cookies`` for its URL, the ``cache`` may answer it (or turn it
///    into a conditional request), the transport sends it with redirects off, the response's cookies are stored and
///    the cache keeps or updates it.
/// 3. A `401`/`407` goes to the authentication loop (``challengeHandler``, or the ``credentialStore``) and the hop
///    is sent again with the answer.
/// 4. A redirect is followed as ``Redirection`` says, after ``redirectHandler`` has seen it, up to the request's
///    `HTTPRequest.redirectPolicy`; each hop is a transport request of its own, so a cassette records every hop as
///    its own interaction whichever door recorded it.
///
/// Only the final response's events reach `onEvent`: a hop that is followed or answered (a redirect, a challenge),
/// or an attempt the interceptor retries, has its events held back and dropped; one that turns out to be final (a
/// redirect the handler stops, a failure not retried) has them delivered in order.
///
/// ```swift
/// var pipeline = SessionPipeline(cookies: CookieStore())
/// pipeline.redirectHandler = { head, proposed in proposed.url.host == "evil.example" ? nil : proposed }
/// let response = try await pipeline.send(HTTPRequest(url: url), over: CurlTransport(), onEvent: nil)
/// ```
public struct SessionPipeline: Sendable {
    /// Decides a redirect: given the `3xx` head and the request ``Redirection`` proposes next, returns the request to
    /// send (changed or not), or `nil` to stop and deliver the redirect response itself.
    public typealias RedirectHandler = @Sendable (HTTPResponseHead, HTTPRequest) async -> HTTPRequest?

    /// Where cookies come from and go to; `nil` turns cookies off. `HTTPRequest.shouldHandleCookies` turns them
    /// off for one request.
    public var cookies: (any CookieJar)?
    /// The HTTP cache that answers and stores in-memory responses, or `nil` for none.
    public var cache: HTTPCache?
    /// Where default handling of a challenge finds credentials.
    public var credentialStore: CredentialStore
    /// The Digest nonce counts, shared by every request of a session.
    public var nonceCounter: DigestNonceCounter
    /// Decides `401`/`407` challenges; `nil` means default handling (stored credentials).
    public var challengeHandler: AuthenticationChallengeHandler?
    /// Decides redirects; `nil` follows each one as ``Redirection`` proposes.
    public var redirectHandler: RedirectHandler?
    /// Adapts requests and decides retries (Alamofire's `RequestInterceptor`), or `nil`.
    public var interceptor: (any RequestInterceptor)?
    /// The clock retry delays wait on.
    public var clock: any WallClock
    /// Told about each redirect that will be followed, after the handler decided it.
    public var willRedirect: (@Sendable (HTTPResponseHead, HTTPRequest) -> Void)?
    /// Told about each retry the interceptor decided: the attempt about to start (2 for the first retry) and why.
    public var willRetry: (@Sendable (Int, RequestFailure) -> Void)?
    /// The identifier the interceptor sees in its ``RequestAdapterContext`` (a session task's), or `nil`.
    public var taskIdentifier: Int?
    /// Where a replaying transport under a wrapper that hides its `HTTPTransport/recordedTime` announces the
    /// recording's clock (`RecordedTime/Listener`): shared by every copy of this pipeline, so the requests after the
    /// first replayed answer are judged on the recording's time. A door that makes a pipeline per request passes its
    /// session's one.
    public var recordedTimeListener: RecordedTime.Listener

    /// Creates a pipeline; by default it keeps cookies in a new ``CookieStore`` and has no cache, handlers or
    /// interceptor.
    public init(
        cookies: (any CookieJar)? = CookieStore(),
        cache: HTTPCache? = nil,
        credentialStore: CredentialStore = CredentialStore(),
        nonceCounter: DigestNonceCounter = DigestNonceCounter(),
        challengeHandler: AuthenticationChallengeHandler? = nil,
        redirectHandler: RedirectHandler? = nil,
        interceptor: (any RequestInterceptor)? = nil,
        clock: any WallClock = SystemWallClock(),
        recordedTimeListener: RecordedTime.Listener = RecordedTime.Listener()
    ) {
        self.cookies = cookies
        self.cache = cache
        self.credentialStore = credentialStore
        self.nonceCounter = nonceCounter
        self.challengeHandler = challengeHandler
        self.redirectHandler = redirectHandler
        self.interceptor = interceptor
        self.clock = clock
        self.recordedTimeListener = recordedTimeListener
    }

    /// The response to `request` over `transport`, with the final hop's transport events passed to `onEvent`.
    ///
    /// - Throws: the transport's errors; `URLError.httpTooManyRedirects` past the request's
    ///   `HTTPRequest.redirectPolicy`; `URLError.redirectToNonExistentLocation` for a `Location` that is not a URL;
    ///   `URLError.userCancelledAuthentication` when a challenge handler cancels.
    ///
    /// Over a transport with a `HTTPTransport/recordedTime` (a replaying cassette), everything the pipeline judges
    /// by the time runs on the recording's clock (`RecordedTime`). Over a wrapper that does not forward it, the
    /// replaying transport underneath announces its clock to ``recordedTimeListener``, and from its first answer on
    /// the pipeline judges by the recording's time all the same.
    public func send(
        _ request: HTTPRequest, over transport: any HTTPTransport, onEvent: HTTPEventHandler?
    ) async throws -> HTTPResponse {
        let listener = recordedTimeListener
        // A pipeline sending through another (a SessionTransport under this one) hears what the inner one heard.
        let enclosing = RecordedTime.listener
        defer { if let enclosing, enclosing !== listener, let heard = listener.clock { enclosing.hear(heard) } }
        return try await RecordedTime.$listener.withValue(listener) {
            try await RecordedTime.run(over: transport) { try await attempt(request, over: transport, onEvent: onEvent) }
        }
    }

    /// Sends `request` through the interceptor, if any, retrying as it decides.
    private func attempt(_ request: HTTPRequest, over transport: any HTTPTransport, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        guard let interceptor else { return try await follow(request, over: transport, onEvent: onEvent) }
        let loop = InterceptorLoop(interceptor: ReportingInterceptor(base: interceptor, willRetry: willRetry), clock: clock,
                                   taskIdentifier: taskIdentifier)
        // A failed answer's events wait until the retrier has decided: a retried one's never reach the caller.
        var lastGate: HopEventGate?
        let response = try await loop.send(request) { attempt in
            let gate = onEvent.map { HopEventGate.attempt($0, isFailure: { head in InterceptorLoop.isFailureStatus(head.statusCode) }) }
            lastGate = gate
            return try await follow(attempt, over: transport, onEvent: gate?.handler)
        }
        lastGate?.release()
        return response
    }

    /// Sends `request` hop by hop, answering authentication challenges and following redirects.
    private func follow(_ request: HTTPRequest, over transport: any HTTPTransport, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        // Made at the first challenge: until then there is nothing to answer or to remember.
        var authentication: AuthenticationLoop?
        var current = request
        var hops = 0
        while true {
            var gate: HopEventGate?
            if let onEvent { gate = HopEventGate.hop(onEvent, followsRedirects: request.redirectPolicy != .none) }
            var response = try await exchange(current, over: transport, onEvent: gate?.handler)
            if authentication != nil || response.statusCode == 401 || response.statusCode == 407 {
                var loop = authentication ?? AuthenticationLoop(handler: challengeHandler, credentialStore: credentialStore,
                                                                nonceCounter: nonceCounter)
                let step = await loop.next(after: response.head, to: current)
                authentication = loop
                switch step {
                case .retry(let answered):
                    current = answered
                    continue
                case .fail(let error):
                    throw error
                case .proceed, .stop:
                    break
                }
            }
            response.metrics.redirectCount = hops
            guard case .follow(let maximum) = request.redirectPolicy,
                  let proposed = try Redirection.next(after: response.head, from: current) else {
                gate?.release()
                return response
            }
            guard hops < maximum else {
                throw URLError(.httpTooManyRedirects, failingURL: current.url,
                               reason: "There were too many redirects: more than \(maximum) (the request's redirectPolicy).")
            }
            guard let next = redirectHandler == nil ? proposed : await redirectHandler!(response.head, proposed) else {
                gate?.release()
                return response
            }
            willRedirect?(response.head, next)
            current = next
            hops += 1
        }
    }

    /// One exchange with the cache or the origin, for one hop.
    private func exchange(_ request: HTTPRequest, over transport: any HTTPTransport, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        var outgoing = request
        outgoing.redirectPolicy = .none
        let cookies = request.shouldHandleCookies ? cookies : nil
        if let cookies, !outgoing.headers.contains("Cookie"), let header = cookies.cookieHeader(for: request.url) {
            outgoing.headers.add(name: "Cookie", value: header)
        }
        guard let cache, request.responseBody == .memory else {
            return try await received(transport.send(outgoing, onEvent: onEvent), for: outgoing, cookies: cookies)
        }
        let lookup = cache.lookup(outgoing, policy: request.cachePolicy)
        switch lookup {
        case .hit(let response):
            Self.replay(response, to: onEvent)
            return response
        case .unavailable:
            throw URLError(.resourceUnavailable, failingURL: request.url,
                           reason: "The resource is not in the cache and the request's cache policy does not allow loading it.")
        case .miss:
            let requestTime = cache.clock.now
            let response = try await received(transport.send(outgoing, onEvent: onEvent), for: outgoing, cookies: cookies)
            return cache.store(response, for: outgoing, after: lookup, requestTime: requestTime, responseTime: cache.clock.now)
        case .validate:
            // A `304` becomes the stored response: the caller hears of that one, not of the transport's `304`.
            let sent = lookup.requestToSend(for: outgoing) ?? outgoing
            let requestTime = cache.clock.now
            let response = try await received(transport.send(sent, onEvent: nil), for: sent, cookies: cookies)
            let stored = cache.store(response, for: outgoing, after: lookup, requestTime: requestTime, responseTime: cache.clock.now)
            Self.replay(stored, to: onEvent)
            return stored
        }
    }

    /// The events of a response that comes whole from the cache: its head, its progress and its completion.
    private static func replay(_ response: HTTPResponse, to onEvent: HTTPEventHandler?) {
        guard let onEvent else { return }
        onEvent(.responseHead(response.head))
        let length = response.body.byteCount
        if length > 0 { onEvent(.downloadProgress(TransferProgress(completed: length, total: length))) }
        onEvent(.completed(response))
    }

    /// Stores the cookies `response` sets, and hands it on.
    private func received(_ response: HTTPResponse, for request: HTTPRequest, cookies: (any CookieJar)?) -> HTTPResponse {
        if let cookies, response.headers.contains("Set-Cookie") {
            cookies.store(setCookieHeaders: response.headers.values(for: "Set-Cookie"), for: request.url)
        }
        return response
    }
}

/// An interceptor that reports each retry its base decides.
private struct ReportingInterceptor: RequestInterceptor {
    let base: any RequestInterceptor
    let willRetry: (@Sendable (Int, RequestFailure) -> Void)?

    func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
        try await base.adapt(request, for: context)
    }

    func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision {
        let decision = await base.retry(request, dueTo: failure, attempt: attempt)
        if decision.retries { willRetry?(attempt + 1, failure) }
        return decision
    }
}
