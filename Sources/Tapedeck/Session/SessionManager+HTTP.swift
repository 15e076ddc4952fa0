import Foundation

/// What `NSURLSession` does under AFNetworking, done by the session for every task over any transport: cookies, redirect
/// hops, the HTTP cache, authentication challenges, and (Alamofire's addition) request interceptors with retry. See
/// ``SessionManager`` for the order they run in.
///
/// ```swift
/// let manager = SessionManager(transport: CurlTransport())
/// manager.cache = HTTPCache(memoryCapacity: 8 << 20)
/// manager.credentialStore.set(Credential(user: "ada", password: "lovelace", persistence: .forSession), for: space)
/// manager.interceptor = RetryPolicy(retryLimit: 3)
/// manager.redirectHandler = { task, response, proposed in
///     proposed.url.host == "evil.example" ? nil : proposed   // nil: stop and deliver the redirect itself
/// }
/// ```
extension SessionManager {
    /// Decides a redirect (AFNetworking's `setTaskWillPerformHTTPRedirectionBlock:`): given the task, the `3xx` head
    /// and the request the session proposes next (see `Redirection`), returns the request to send, changed or not,
    /// or `nil` to stop and deliver the redirect response itself.
    public typealias RedirectHandler = @Sendable (SessionTask, HTTPResponseHead, HTTPRequest) async -> HTTPRequest?

    /// The cookies the tasks send and store (on by default; `nil` turns cookies off). Share one store between managers
    /// to share their cookies; `HTTPRequest/shouldHandleCookies` turns them off for one request.
    public var cookieStore: CookieStore? {
        get { withSettings { $0.cookieStore } }
        set { withSettings { $0.cookieStore = newValue } }
    }

    /// The HTTP cache that answers and stores responses, or `nil` (the default) for none. Each request's
    /// `HTTPRequest/cachePolicy` says how it may be used; only in-memory responses (data and upload tasks) are cached.
    public var cache: HTTPCache? {
        get { withSettings { $0.cache } }
        set { withSettings { $0.cache = newValue } }
    }

    /// Where default handling of an authentication challenge finds credentials, and where accepted credentials with
    /// `Credential/Persistence/forSession` persistence are kept.
    public var credentialStore: CredentialStore {
        get { withSettings { $0.credentialStore } }
        set { withSettings { $0.credentialStore = newValue } }
    }

    /// Decides every `401`/`407` challenge of every task (AFNetworking's
    /// `setTaskDidReceiveAuthenticationChallengeBlock:`) unless the task has its own
    /// ``SessionTask/authenticationChallengeHandler``; `nil` means default handling (stored credentials).
    public var authenticationChallengeHandler: AuthenticationChallengeHandler? {
        get { withSettings { $0.challengeHandler } }
        set { withSettings { $0.challengeHandler = newValue } }
    }

    /// Decides every redirect of every task unless the task has its own ``SessionTask/redirectHandler``; `nil` (the
    /// default) follows each redirect as `Redirection` proposes, up to the request's `HTTPRequest/redirectPolicy`.
    public var redirectHandler: RedirectHandler? {
        get { withSettings { $0.redirectHandler } }
        set { withSettings { $0.redirectHandler = newValue } }
    }

    /// Adapts each request before it is sent and decides retries after failures (Alamofire's `RequestInterceptor`;
    /// compose several with `Interceptor`). `nil` (the default) sends each request once.
    public var interceptor: (any RequestInterceptor)? {
        get { withSettings { $0.interceptor } }
        set { withSettings { $0.interceptor = newValue } }
    }

    /// The clock retry delays wait on (give the cookie store and the cache the same one in tests).
    public var clock: any WallClock {
        get { withSettings { $0.clock } }
        set { withSettings { $0.clock = newValue } }
    }
}
