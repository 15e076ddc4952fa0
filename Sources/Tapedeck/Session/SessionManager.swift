import Foundation
import TapedeckCore

/// Runs data, upload and download tasks over any `HTTPTransport`: AFNetworking's `AFURLSessionManager` role.
///
/// The same manager code runs over the live `CurlTransport`, a cassette, or a stub server's transport. Async is the
/// primitive: ``SessionTask/run()`` runs a task in the caller's context and returns its result. Completion handlers
/// and progress closures, run on ``completionQueue``, are an adapter over it (``SessionTask/resume()``).
///
/// ```swift
/// let manager = SessionManager(transport: CurlTransport())
/// let task = manager.downloadTask(with: HTTPRequest(url: fileURL)) { temporary, response in
///     documents.appendingPathComponent(response.url.lastPathComponent)
/// }
/// task.resume()
/// let result = await task.result
/// ```
public final class SessionManager: Sendable {
    /// The transport the tasks use.
    public let transport: any HTTPTransport
    /// Where task notifications are posted.
    let notificationCenter: NotificationCenter
    private let settings: Locked<Settings>
    let registry = Locked(SessionTaskRegistry())

    /// What a task reads as it runs; changed through the manager's properties.
    struct Settings: Sendable {
        var completionQueue: DispatchQueue
        var responseSerializer: any ResponseSerializer
        var reachability: NetworkReachabilityManager?
        var failsWhenNotReachable: Bool
        var cookieStore: CookieStore? = CookieStore()
        var cache: HTTPCache?
        var credentialStore = CredentialStore()
        var nonceCounter = DigestNonceCounter()
        var challengeHandler: AuthenticationChallengeHandler?
        var redirectHandler: SessionManager.RedirectHandler?
        var interceptor: (any RequestInterceptor)?
        var clock: any WallClock = SystemWallClock()
        /// Where the transport's replayed answers announce the recording's clock, shared by all the tasks.
        let recordedTimeListener = RecordedTime.Listener()
    }

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - transport: where requests go.
    ///   - responseSerializer: how data and upload task bodies become values; JSON by default, as in AFNetworking.
    ///   - completionQueue: where completion handlers and progress closures run; a private serial queue by default
    ///     (pass `.main` for UI code on a platform with a main run loop).
    ///   - notificationCenter: where task notifications are posted.
    ///   - reachability: a manager whose status the tasks consult as they start (see ``failsWhenNotReachable``);
    ///     start its monitoring yourself. `nil` (the default) consults nothing.
    ///   - failsWhenNotReachable: with a `reachability` manager, whether a task that starts while it reports
    ///     ``NetworkReachabilityManager/Status/notReachable`` fails at once with `URLError.notConnectedToInternet`
    ///     (-1009) without reaching the transport. An unknown status never fails a task.
    ///
    /// ```swift
    /// let reachability = NetworkReachabilityManager.shared
    /// reachability.startMonitoring()
    /// let manager = SessionManager(transport: CurlTransport(), reachability: reachability)
    /// ```
    public init(
        transport: any HTTPTransport,
        responseSerializer: any ResponseSerializer = JSONResponseSerializer(),
        completionQueue: DispatchQueue = DispatchQueue(label: "com.tapedeck.session.completion"),
        notificationCenter: NotificationCenter = .default,
        reachability: NetworkReachabilityManager? = nil,
        failsWhenNotReachable: Bool = true
    ) {
        self.transport = transport
        self.notificationCenter = notificationCenter
        settings = Locked(Settings(completionQueue: completionQueue, responseSerializer: responseSerializer,
                                  reachability: reachability, failsWhenNotReachable: failsWhenNotReachable))
    }

    /// Where completion handlers and progress closures run.
    public var completionQueue: DispatchQueue {
        get { settings.withLock { $0.completionQueue } }
        set { settings.withLock { $0.completionQueue = newValue } }
    }

    /// How data and upload task bodies become values.
    public var responseSerializer: any ResponseSerializer {
        get { settings.withLock { $0.responseSerializer } }
        set { settings.withLock { $0.responseSerializer = newValue } }
    }

    /// The reachability manager tasks consult as they start, if any.
    public var reachability: NetworkReachabilityManager? {
        get { settings.withLock { $0.reachability } }
        set { settings.withLock { $0.reachability = newValue } }
    }

    /// Whether a task that starts while ``reachability`` reports not reachable fails at once with
    /// `URLError.notConnectedToInternet` (-1009) instead of reaching the transport.
    public var failsWhenNotReachable: Bool {
        get { settings.withLock { $0.failsWhenNotReachable } }
        set { settings.withLock { $0.failsWhenNotReachable = newValue } }
    }

    /// The settings as they are now, read once.
    var currentSettings: Settings { settings.withLock { $0 } }

    /// Reads or changes the settings under their lock.
    func withSettings<Result>(_ body: (inout Settings) -> Result) -> Result { settings.withLock { body(&$0) } }

    /// Tasks created and not yet finished, by identifier.
    public var tasks: [SessionTask] {
        registry.withLock { $0.tasks.values.sorted { $0.taskIdentifier < $1.taskIdentifier } }
    }

    /// Running tasks of one kind.
    public func tasks(of kind: SessionTask.Kind) -> [SessionTask] { tasks.filter { $0.kind == kind } }

    // MARK: Creating tasks

    /// A task that sends `request` as it is and collects the response in memory.
    ///
    /// A trailing closure is the completion handler: `manager.dataTask(with: request) { result in … }`.
    public func dataTask(
        with request: HTTPRequest,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) -> SessionTask {
        makeTask(.data, request, SessionTask.Handlers(completion: completion))
    }

    /// A task that sends `request` as it is and collects the response in memory, reporting progress both ways.
    public func dataTask(
        with request: HTTPRequest,
        uploadProgress: (@Sendable (Progress) -> Void)?,
        downloadProgress: (@Sendable (Progress) -> Void)?,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) -> SessionTask {
        makeTask(.data, request, SessionTask.Handlers(uploadProgress: uploadProgress, downloadProgress: downloadProgress, completion: completion))
    }

    /// A task that sends `request` and hands its body to `didReceiveData` piece by piece as it arrives (a server-sent
    /// event stream, a streamed LLM answer), as AFNetworking's `setDataTaskDidReceiveDataBlock:` does, instead of
    /// collecting it: the result carries the response and its metrics, no data, and what the response serializer
    /// makes of no data. Only the final response's body is handed over (not that of a redirect the session follows, a
    /// challenge it answers or a failure it retries), in order on ``completionQueue`` (serial by default), before the
    /// completion. A cache in the session is not consulted: a streamed body is never stored whole.
    ///
    /// ```swift
    /// let task = manager.dataTask(with: request, didReceiveData: { chunk in events.feed(chunk) }) { result in
    ///     print(result.response?.statusCode ?? 0, result.error as Any)
    /// }
    /// task.resume()
    /// ```
    public func dataTask(
        with request: HTTPRequest,
        didReceiveData: @escaping @Sendable (Data) -> Void,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) -> SessionTask {
        var streamed = request
        streamed.responseBody = .stream
        return makeTask(.data, streamed, SessionTask.Handlers(completion: completion, receivedData: didReceiveData))
    }

    /// A task that uploads `body` (data, a file, or a stream) with `request`.
    public func uploadTask(
        with request: HTTPRequest,
        from body: HTTPRequestBody,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) -> SessionTask {
        uploadTask(with: request, from: body, progress: nil, completion: completion)
    }

    /// A task that uploads `body` (data, a file, or a stream) with `request`, reporting upload progress.
    public func uploadTask(
        with request: HTTPRequest,
        from body: HTTPRequestBody,
        progress: (@Sendable (Progress) -> Void)?,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) -> SessionTask {
        var request = request
        request.body = body
        return makeTask(.upload, request, SessionTask.Handlers(uploadProgress: progress, completion: completion))
    }

    /// A task that downloads to a temporary file, then moves it to the URL `destination` returns (replacing any
    /// file there). Without a destination the result's `fileURL` is the temporary file, which is yours to remove.
    ///
    /// A trailing closure is the destination: `manager.downloadTask(with: request) { temporary, response in … }`.
    public func downloadTask(
        with request: HTTPRequest,
        destination: (@Sendable (URL, HTTPResponseHead) -> URL)? = nil,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) -> SessionTask {
        downloadTask(with: request, progress: nil, destination: destination, completion: completion)
    }

    /// A download task that also reports its progress (see ``downloadTask(with:destination:completion:)``).
    public func downloadTask(
        with request: HTTPRequest,
        progress: (@Sendable (Progress) -> Void)?,
        destination: (@Sendable (URL, HTTPResponseHead) -> URL)?,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) -> SessionTask {
        makeTask(.download, request, SessionTask.Handlers(downloadProgress: progress, completion: completion, destination: destination))
    }

    /// A download that continues from resume data a cancelled download produced
    /// (``SessionTask/cancelProducingResumeData()``). If the server ignores the range, it restarts cleanly.
    ///
    /// - Throws: ``DownloadResumeData/DecodingError`` when the data is not readable resume data.
    public func downloadTask(
        withResumeData resumeData: Data,
        destination: (@Sendable (URL, HTTPResponseHead) -> URL)? = nil,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) throws -> SessionTask {
        try downloadTask(withResumeData: resumeData, progress: nil, destination: destination, completion: completion)
    }

    /// A resumed download that also reports its progress (see ``downloadTask(withResumeData:destination:completion:)``).
    public func downloadTask(
        withResumeData resumeData: Data,
        progress: (@Sendable (Progress) -> Void)?,
        destination: (@Sendable (URL, HTTPResponseHead) -> URL)?,
        completion: (@Sendable (SessionTaskResult) -> Void)? = nil
    ) throws -> SessionTask {
        let resume = try DownloadResumeData(data: resumeData)
        var request = HTTPRequest(url: resume.url)
        request.headers = HTTPHeaders(resume.headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
        let handlers = SessionTask.Handlers(downloadProgress: progress, completion: completion, destination: destination)
        return makeTask(.download, request, handlers, resumeData: resume)
    }

    private func makeTask(
        _ kind: SessionTask.Kind, _ request: HTTPRequest, _ handlers: SessionTask.Handlers,
        resumeData: DownloadResumeData? = nil
    ) -> SessionTask {
        let registered = registry.withLock { registry in
            registry.register { SessionTask(identifier: $0, kind: kind, request: request, handlers: handlers,
                                            manager: self, resumeData: resumeData) }
        }
        if let registered {
            post(.taskDidCreate(registered))
            return registered
        }
        // After invalidation: a task that is already finished with a clear error.
        let task = SessionTask(identifier: 0, kind: kind, request: request, handlers: handlers, manager: self)
        task.failBeforeStart(URLError(.cancelled, failingURL: request.url,
                                      reason: "the session manager was invalidated; create a new one for new tasks"))
        return task
    }

    /// A task finished: it leaves the registry, and the event streams and notification center hear of it.
    func taskDidFinish(_ task: SessionTask, result: SessionTaskResult) {
        let idle = registry.withLock { $0.remove(task) }
        if let metrics = result.metrics { post(.taskDidFinishCollectingMetrics(task, metrics)) }
        post(.taskDidComplete(task, result))
        for waiter in idle { waiter.resume() }
    }

    // MARK: Invalidation

    /// Stops accepting tasks and cancels every running one.
    public func invalidateAndCancel() {
        for task in registry.withLock({ $0.invalidate() }) { task.cancel() }
    }

    /// Stops accepting tasks and waits for the running ones to finish.
    public func finishTasksAndInvalidate() async {
        _ = registry.withLock { $0.invalidate() }
        await registry.wait { registry, continuation in registry.waitForIdle(continuation) ? nil : () }
    }
}
