import Foundation
import TapedeckCore

/// One data, upload or download task of a ``SessionManager``: AFNetworking's `NSURLSessionTask` role.
///
/// Tasks start suspended. ``run()`` runs one in the calling task and returns its result: the async primitive, with
/// no task of its own to schedule and no hop through the completion queue unless the task has closures. ``resume()``
/// starts it in the background instead, AFNetworking style; await ``result`` or pass a completion handler when
/// creating the task. ``uploadProgress`` and ``downloadProgress`` reach a fraction of 1.0 on success.
///
/// ```swift
/// let result = await manager.dataTask(with: request).run()
///
/// let task = manager.dataTask(with: request) { result in print(result.response?.statusCode ?? 0) }
/// task.resume()
/// ```
public final class SessionTask: Sendable {
    /// What kind of transfer the task makes.
    public enum Kind: Sendable, Hashable {
        /// A request whose body, if any, is part of the request; the response lands in memory.
        case data
        /// A request whose body comes from data, a file or a stream; the response lands in memory.
        case upload
        /// A request whose response lands in a file.
        case download
    }

    /// Unique within its manager, in creation order.
    public let taskIdentifier: Int
    /// The kind of task.
    public let kind: Kind
    /// The request as created.
    public let originalRequest: HTTPRequest
    /// Bytes of the request body sent.
    public let uploadProgress: Progress
    /// Bytes of the response body received.
    public let downloadProgress: Progress

    /// The closures of the AFNetworking-style API.
    struct Handlers: Sendable {
        var uploadProgress: (@Sendable (Progress) -> Void)?
        var downloadProgress: (@Sendable (Progress) -> Void)?
        var completion: (@Sendable (SessionTaskResult) -> Void)?
        var destination: (@Sendable (URL, HTTPResponseHead) -> URL)?
        /// Each piece of the final response's body, as it arrives (the body is then not collected).
        var receivedData: (@Sendable (Data) -> Void)?

        /// Whether any closure runs on the completion queue: the result is then delivered there too, after them.
        var runOnCompletionQueue: Bool { uploadProgress != nil || downloadProgress != nil || completion != nil || receivedData != nil }
    }

    struct MutableState {
        var lifecycle = SessionTaskLifecycle()
        var attempt = 0
        /// What runs the current attempt, so that suspending or cancelling the task can stop it.
        var runner: AttemptRunner?
        /// The attempt running in a caller's context, until its code has ended.
        var callerAttempt: Int?
        /// Who waits for `callerAttempt` to end (see ``cancelProducingResumeData()``).
        var attemptEndWaiters: [CheckedContinuation<Void, Never>] = []
        var response: HTTPResponseHead?
        /// What a `206 Partial Content` answer adds to download progress: the bytes already in the partial file.
        var progressBase: Int64 = 0
        var result: SessionTaskResult?
        /// Set when the outcome is decided; ``result`` follows once it has been delivered.
        var isFinishing = false
        var waiters: [CheckedContinuation<SessionTaskResult, Never>] = []
        /// The partial file of a download, kept across suspend/resume.
        var partialFile: URL?
        /// Where a resumed download continues from (set from resume data).
        var resumeFrom: DownloadResumeData?
        /// This task's own redirect and challenge decisions, over the manager's.
        var redirectHandler: SessionManager.RedirectHandler?
        var challengeHandler: AuthenticationChallengeHandler?

        /// Whether `attempt` is the running one: its events and outcome still count.
        func isRunning(_ attempt: Int) -> Bool { self.attempt == attempt && lifecycle.state == .running }
    }

    let storage = Locked(MutableState())
    let handlers: Handlers
    let manager: SessionManager

    init(
        identifier: Int, kind: Kind, request: HTTPRequest, handlers: Handlers, manager: SessionManager,
        resumeData: DownloadResumeData? = nil
    ) {
        taskIdentifier = identifier
        self.kind = kind
        originalRequest = request
        self.handlers = handlers
        self.manager = manager
        // Parentless, as AFNetworking makes them (`initWithParent:nil`): not attached to a progress that happens to be
        // current on the creating thread, and without looking one up for every task.
        uploadProgress = Progress(parent: nil, userInfo: nil)
        uploadProgress.totalUnitCount = request.body.knownLength ?? -1
        downloadProgress = Progress(parent: nil, userInfo: nil)
        downloadProgress.totalUnitCount = -1
        if let resumeData {
            storage.withLock {
                $0.resumeFrom = resumeData
                $0.partialFile = resumeData.partialFile
            }
        }
    }

    /// The current state.
    public var state: SessionTaskState { storage.withLock { $0.lifecycle.state } }

    /// The response head, once it has arrived.
    public var response: HTTPResponseHead? { storage.withLock { $0.response } }

    /// Decides this task's redirects instead of the manager's ``SessionManager/redirectHandler``; set it before the
    /// task runs.
    public var redirectHandler: SessionManager.RedirectHandler? {
        get { storage.withLock { $0.redirectHandler } }
        set { storage.withLock { $0.redirectHandler = newValue } }
    }

    /// Decides this task's `401`/`407` challenges instead of the manager's
    /// ``SessionManager/authenticationChallengeHandler``; set it before the task runs.
    public var authenticationChallengeHandler: AuthenticationChallengeHandler? {
        get { storage.withLock { $0.challengeHandler } }
        set { storage.withLock { $0.challengeHandler = newValue } }
    }

    /// The outcome; waits for the task to finish.
    public var result: SessionTaskResult {
        get async {
            if let finished = storage.withLock({ $0.result }) { return finished }
            return await storage.wait { state, continuation in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
        }
    }

    /// Runs the task and returns its result: ``resume()`` then ``result``, except that the transfer starts right
    /// here, in the calling task's context, and a replayed or quick answer comes back without any thread hop.
    /// Cancelling the calling task cancels this task. A task that is already running is waited for.
    ///
    /// The transfer runs in a child task, so that suspending or cancelling this task stops it without cancelling the
    /// caller. On a transport with an executor of its own (`TapedeckCore/HTTPTransport/preferredExecutor`, the
    /// live `CurlTransport`'s event loop) the child runs there, where the transport resumes it, and the caller
    /// resumes once, for the result: the same single hand-off a caller of the transport alone has.
    ///
    /// ```swift
    /// let result = await manager.dataTask(with: HTTPRequest(url: url)).run()
    /// print(result.response?.statusCode ?? 0, result.error ?? "no error")
    /// ```
    public func run() async -> SessionTaskResult {
        await withTaskCancellationHandler {
            if let attempt = beginAttempt() {
                let executor = manager.transport.preferredExecutor
                let outcome = await withTaskGroup(of: TransferOutcome?.self) { group in
                    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                        group.addImmediateTask(executorPreference: executor) { await self.transferInCaller(attempt: attempt) }
                    } else {
                        group.addTask(executorPreference: executor) { await self.transferInCaller(attempt: attempt) }
                    }
                    return await group.next() ?? nil
                }
                if let outcome { conclude(outcome, attempt: attempt) }
            }
            return await result
        } onCancel: {
            cancel()
        }
    }

    /// Starts the task in the background, or restarts it after ``suspend()``. A download continues where it stopped
    /// when the server honours `Range`; a data or upload task starts its request again.
    public func resume() {
        guard let attempt = beginAttempt() else { return }
        let running = Task { await self.perform(attempt: attempt) }
        let superseded = storage.withLock { state -> Bool in
            guard state.attempt == attempt else { return true }
            if !state.isFinishing { state.runner = .background(running) }
            return false
        }
        // Suspended or cancelled before its handle was stored: stop it now.
        if superseded { running.cancel() }
    }

    /// Pauses a running task: its transfer stops, and ``resume()`` starts it again.
    public func suspend() {
        let paused = storage.withLock { state -> Bool in
            guard state.lifecycle.suspend() == .pauseTransfer else { return false }
            state.attempt += 1  // the stopped attempt's outcome no longer counts
            state.runner.take()?.stop()
            return true
        }
        if paused { manager.post(.taskDidSuspend(self)) }
    }

    /// Cancels the task; it completes with `URLError.cancelled`.
    public func cancel() {
        cancelTransfer()
    }

    /// Cancels a download and returns data a new task can continue from (`nil` for other kinds, or when nothing
    /// was received yet).
    public func cancelProducingResumeData() async -> Data? {
        await cancelTransfer()?.waitUntilEnded(self)
        guard kind == .download else { return nil }
        let (file, response) = storage.withLock { ($0.partialFile, $0.response) }
        guard let file, FileManager.default.fileExists(atPath: file.path) else { return nil }
        return DownloadResumeData(request: originalRequest, partialFile: file, response: response).encoded()
    }

    /// Completes a task that will never run (its session was invalidated).
    func failBeforeStart(_ error: any Error) {
        storage.withLock { _ = $0.lifecycle.cancel() }
        finish(SessionTaskResult(error: error), keepPartialFile: false)
    }

    /// Moves the task to running and posts `taskDidResume`; returns the new attempt's number, or `nil` when the task
    /// is not suspended.
    private func beginAttempt() -> Int? {
        let attempt = storage.withLock { state -> Int? in
            guard state.lifecycle.resume() == .startTransfer else { return nil }
            state.attempt += 1
            return state.attempt
        }
        if attempt != nil { manager.post(.taskDidResume(self)) }
        return attempt
    }

    /// Runs `attempt`'s transfer in the child task ``run()`` made, registered so that suspending or cancelling can
    /// stop it; `nil` when it was stopped before it began.
    private func transferInCaller(attempt: Int) async -> TransferOutcome? {
        let registered = withUnsafeCurrentTask { current -> Bool in
            guard let current else { return false }
            return storage.withLock { state in
                guard state.attempt == attempt, !state.isFinishing else { return false }
                state.runner = .caller(CallerTask(current), attempt: attempt)
                state.callerAttempt = attempt
                return true
            }
        }
        guard registered else { return nil }  // suspended or cancelled before it began
        let outcome = await transfer(attempt: attempt)
        let waiters = storage.withLock { state -> [CheckedContinuation<Void, Never>] in
            if case .caller(_, attempt)? = state.runner { state.runner = nil }
            if state.callerAttempt == attempt { state.callerAttempt = nil }
            defer { state.attemptEndWaiters.removeAll() }
            return state.attemptEndWaiters
        }
        for waiter in waiters { waiter.resume() }
        return outcome
    }

    /// Cancels the running attempt and completes the task with `URLError.cancelled`; returns what ran the attempt.
    @discardableResult
    private func cancelTransfer() -> AttemptRunner? {
        let outcome = storage.withLock { state -> (cancelled: Bool, runner: AttemptRunner?) in
            guard state.lifecycle.cancel() == .cancelTransfer else { return (false, nil) }
            state.attempt += 1
            let runner = state.runner.take()
            runner?.stop()
            return (true, runner)
        }
        guard outcome.cancelled else { return nil }
        let error = URLError(.cancelled, failingURL: originalRequest.url, reason: "cancelled")
        finish(SessionTaskResult(response: response, error: error), keepPartialFile: kind == .download)
        return outcome.runner
    }

    /// Delivers the result once: to waiters, the completion handler, notifications and event streams. A task with
    /// closures delivers it on the completion queue, after the progress closures already queued there, so whoever
    /// sees the result has seen the final progress too; a task without closures delivers it at once.
    func finish(_ result: SessionTaskResult, keepPartialFile: Bool) {
        let partial = storage.withLock { state -> URL?? in
            guard !state.isFinishing else { return nil }
            state.isFinishing = true
            if case .background? = state.runner { state.runner = nil }
            _ = state.lifecycle.complete()
            return .some(state.partialFile)
        }
        guard let partial else { return }
        if !keepPartialFile, let partial, partial != result.fileURL {
            try? FileManager.default.removeItem(at: partial)
        }
        if handlers.runOnCompletionQueue {
            manager.completionQueue.async { self.deliver(result) }
        } else {
            deliver(result)
        }
    }

    private func deliver(_ result: SessionTaskResult) {
        let waiters = storage.withLock { state in
            state.result = result
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        handlers.completion?(result)
        for waiter in waiters { waiter.resume(returning: result) }
        manager.taskDidFinish(self, result: result)
    }
}
