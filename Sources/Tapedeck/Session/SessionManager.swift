import Foundation

/// Runs data, upload and download tasks over any ``HTTPTransport``: AFNetworking's `AFURLSessionManager` role.
///
/// The same manager code runs over the live `CurlTransport`, a cassette, or a stub server's transport.
/// Completion handlers and progress closures run on ``completionQueue``; every task can also be awaited.
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
    let core: SessionCore

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
        core = SessionCore(transport: transport, responseSerializer: responseSerializer,
                           completionQueue: completionQueue, notificationCenter: notificationCenter,
                           reachability: reachability, failsWhenNotReachable: failsWhenNotReachable)
    }

    /// The transport the tasks use.
    public var transport: any HTTPTransport { core.transport }

    /// Where completion handlers and progress closures run.
    public var completionQueue: DispatchQueue {
        get { core.completionQueue }
        set { core.completionQueue = newValue }
    }

    /// How data and upload task bodies become values.
    public var responseSerializer: any ResponseSerializer {
        get { core.responseSerializer }
        set { core.responseSerializer = newValue }
    }

    /// The reachability manager tasks consult as they start, if any.
    public var reachability: NetworkReachabilityManager? {
        get { core.reachability }
        set { core.reachability = newValue }
    }

    /// Whether a task that starts while ``reachability`` reports not reachable fails at once with
    /// `URLError.notConnectedToInternet` (-1009) instead of reaching the transport.
    public var failsWhenNotReachable: Bool {
        get { core.failsWhenNotReachable }
        set { core.failsWhenNotReachable = newValue }
    }

    /// Tasks created and not yet finished, by identifier.
    public var tasks: [SessionTask] { core.tasks }

    /// Running tasks of one kind.
    public func tasks(of kind: SessionTask.Kind) -> [SessionTask] { core.tasks.filter { $0.kind == kind } }

    /// A stream of every task event from now on (each call makes an independent stream).
    public func events() -> AsyncStream<SessionEvent> { core.makeEventStream() }

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
        if let task = core.makeTask({ SessionTask(identifier: $0, kind: kind, request: request, handlers: handlers,
                                                   session: core, resumeData: resumeData) }) {
            return task
        }
        // After invalidation: a task that is already finished with a clear error.
        let task = SessionTask(identifier: 0, kind: kind, request: request, handlers: handlers, session: core)
        task.failBeforeStart(URLError(.cancelled, failingURL: request.url,
                                      reason: "the session manager was invalidated; create a new one for new tasks"))
        return task
    }

    // MARK: Invalidation

    /// Stops accepting tasks and cancels every running one.
    public func invalidateAndCancel() {
        for task in core.invalidate() { task.cancel() }
    }

    /// Stops accepting tasks and waits for the running ones to finish.
    public func finishTasksAndInvalidate() async {
        _ = core.invalidate()
        await core.waitUntilIdle()
    }
}
