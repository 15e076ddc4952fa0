import Foundation

/// The one path a task's request takes to its response, doing what `NSURLSession` does under AFNetworking:
///
/// 1. The ``SessionManager/interceptor`` adapts the request; after a failure its retrier may send it again, after a
///    delay waited on the session's ``SessionManager/clock``.
/// 2. Each hop is one exchange: the request gets the stored cookies for its URL, the HTTP cache may answer it (or
///    turn it into a conditional request), the transport sends it with redirects off, the response's cookies are
///    stored and the cache keeps or updates it.
/// 3. A `401`/`407` goes to the authentication loop (the task's or the manager's challenge handler, or stored
///    credentials) and the hop is sent again with the answer.
/// 4. A redirect is followed as ``Redirection`` says, after the task's or manager's redirect handler has seen it,
///    up to the request's ``HTTPRequest/redirectPolicy``; each hop is a transport request of its own, so a cassette
///    records every hop as its own interaction.
struct RequestPipeline {
    let task: SessionTask
    let settings: SessionManager.Settings
    let transport: any HTTPTransport

    /// The response to `request`, with the transport's events of each exchange passed to `onEvent`.
    func send(_ request: HTTPRequest, onEvent: @escaping HTTPEventHandler) async throws -> HTTPResponse {
        guard let interceptor = settings.interceptor else { return try await follow(request, onEvent: onEvent) }
        let loop = InterceptorLoop(interceptor: ReportingInterceptor(base: interceptor, task: task), clock: settings.clock,
                                   taskIdentifier: task.taskIdentifier)
        return try await loop.send(request) { try await follow($0, onEvent: onEvent) }
    }

    /// Sends `request` hop by hop, answering authentication challenges and following redirects.
    private func follow(_ request: HTTPRequest, onEvent: @escaping HTTPEventHandler) async throws -> HTTPResponse {
        let hooks = task.storage.withLock { ($0.redirectHandler, $0.challengeHandler) }
        // Made at the first challenge: until then there is nothing to answer or to remember.
        var authentication: AuthenticationLoop?
        var current = request
        var hops = 0
        while true {
            var response = try await exchange(current, onEvent: onEvent)
            if authentication != nil || response.statusCode == 401 || response.statusCode == 407 {
                var loop = authentication ?? AuthenticationLoop(handler: hooks.1 ?? settings.challengeHandler,
                                                                credentialStore: settings.credentialStore, nonceCounter: settings.nonceCounter)
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
                  let proposed = Redirection.nextRequest(after: response.head, from: current) else { return response }
            guard hops < maximum else {
                throw URLError(.httpTooManyRedirects, failingURL: current.url,
                               reason: "There were too many redirects: more than \(maximum) (the request's redirectPolicy).")
            }
            let decide = hooks.0 ?? settings.redirectHandler
            guard let next = decide == nil ? proposed : await decide!(task, response.head, proposed) else { return response }
            task.manager.post(.taskWillPerformHTTPRedirection(task, response.head, next))
            current = next
            hops += 1
        }
    }

    /// One exchange with the cache or the origin, for one hop.
    private func exchange(_ request: HTTPRequest, onEvent: @escaping HTTPEventHandler) async throws -> HTTPResponse {
        var outgoing = request
        outgoing.redirectPolicy = .none
        let cookies = request.shouldHandleCookies ? settings.cookieStore : nil
        if let cookies, !outgoing.headers.contains("Cookie"), let header = cookies.cookieHeader(for: request.url) {
            outgoing.headers.add(name: "Cookie", value: header)
        }
        guard let cache = settings.cache, request.responseBody == .memory else {
            return try await received(transport.send(outgoing, onEvent: onEvent), for: outgoing, cookies: cookies)
        }
        let lookup = cache.lookup(outgoing, policy: request.cachePolicy)
        switch lookup {
        case .hit(let response):
            onEvent(.responseHead(response.head))
            let length = response.body.byteCount
            if length > 0 { onEvent(.downloadProgress(TransferProgress(completed: length, total: length))) }
            return response
        case .unavailable:
            throw URLError(.resourceUnavailable, failingURL: request.url,
                           reason: "The resource is not in the cache and the request's cache policy does not allow loading it.")
        case .miss, .validate:
            let sent = lookup.requestToSend(for: outgoing) ?? outgoing
            let requestTime = cache.clock.now
            let response = try await received(transport.send(sent, onEvent: onEvent), for: sent, cookies: cookies)
            return cache.store(response, for: outgoing, after: lookup, requestTime: requestTime, responseTime: cache.clock.now)
        }
    }

    /// Stores the cookies `response` sets, and hands it on.
    private func received(_ response: HTTPResponse, for request: HTTPRequest, cookies: CookieStore?) -> HTTPResponse {
        if let cookies, response.headers.contains("Set-Cookie") {
            cookies.store(setCookieHeaders: response.headers.values(for: "Set-Cookie"), for: request.url)
        }
        return response
    }
}

/// An interceptor that tells the task's event streams about each retry its base decides.
private struct ReportingInterceptor: RequestInterceptor {
    let base: any RequestInterceptor
    let task: SessionTask

    func adapt(_ request: HTTPRequest, for context: RequestAdapterContext) async throws -> HTTPRequest {
        try await base.adapt(request, for: context)
    }

    func retry(_ request: HTTPRequest, dueTo failure: RequestFailure, attempt: Int) async -> RetryDecision {
        let decision = await base.retry(request, dueTo: failure, attempt: attempt)
        if decision.retries { task.manager.post(.taskWillRetry(task, attempt: attempt + 1, after: failure)) }
        return decision
    }
}
