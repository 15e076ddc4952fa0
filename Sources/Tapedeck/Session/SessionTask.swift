import Foundation
import Synchronization

/// One data, upload or download task of a ``SessionManager``: AFNetworking's `NSURLSessionTask` role.
///
/// Tasks start suspended; call ``resume()``. Await ``result`` for the outcome, or pass a completion handler when
/// creating the task. ``uploadProgress`` and ``downloadProgress`` reach a fraction of 1.0 on success.
///
/// ```swift
/// let task = manager.dataTask(with: request)
/// task.resume()
/// let result = await task.result
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

    struct Handlers: Sendable {
        var uploadProgress: (@Sendable (Progress) -> Void)?
        var downloadProgress: (@Sendable (Progress) -> Void)?
        var completion: (@Sendable (SessionTaskResult) -> Void)?
        var destination: (@Sendable (URL, HTTPResponseHead) -> URL)?
    }

    private struct MutableState {
        var lifecycle = SessionTaskLifecycle()
        var attempt = 0
        var running: Task<Void, Never>?
        var response: HTTPResponseHead?
        var result: SessionTaskResult?
        /// Set when the outcome is decided; ``result`` follows once it has been delivered on the completion queue.
        var isFinishing = false
        var waiters: [CheckedContinuation<SessionTaskResult, Never>] = []
        /// The partial file of a download, kept across suspend/resume.
        var partialFile: URL?
        /// Where a resumed download continues from (set from resume data).
        var resumeFrom: DownloadResumeData?
    }

    private let storage = Mutex(MutableState())
    private let handlers: Handlers
    private let session: SessionCore

    init(
        identifier: Int, kind: Kind, request: HTTPRequest, handlers: Handlers, session: SessionCore,
        resumeData: DownloadResumeData? = nil
    ) {
        taskIdentifier = identifier
        self.kind = kind
        originalRequest = request
        self.handlers = handlers
        self.session = session
        uploadProgress = Progress(totalUnitCount: request.body.knownLength ?? -1)
        downloadProgress = Progress(totalUnitCount: -1)
        storage.withLock {
            $0.resumeFrom = resumeData
            $0.partialFile = resumeData?.partialFile
        }
    }

    /// The current state.
    public var state: SessionTaskState { storage.withLock { $0.lifecycle.state } }

    /// The response head, once it has arrived.
    public var response: HTTPResponseHead? { storage.withLock { $0.response } }

    /// The outcome; waits for the task to finish.
    public var result: SessionTaskResult {
        get async {
            await withCheckedContinuation { continuation in
                let finished = storage.withLock { state -> SessionTaskResult? in
                    if let result = state.result { return result }
                    state.waiters.append(continuation)
                    return nil
                }
                if let finished { continuation.resume(returning: finished) }
            }
        }
    }

    /// Starts the task, or restarts it after ``suspend()``. A download continues where it stopped when the server
    /// honours `Range`; a data or upload task starts its request again.
    public func resume() {
        let attempt = storage.withLock { state -> Int? in
            guard state.lifecycle.resume() == .startTransfer else { return nil }
            state.attempt += 1
            return state.attempt
        }
        guard let attempt else { return }
        let running = Task { await self.run(attempt: attempt) }
        storage.withLock { if $0.attempt == attempt { $0.running = running } }
        session.post(.taskDidResume(self))
    }

    /// Pauses a running task: its transfer stops, and ``resume()`` starts it again.
    public func suspend() {
        let running = storage.withLock { state -> Task<Void, Never>?? in
            guard state.lifecycle.suspend() == .pauseTransfer else { return nil }
            state.attempt += 1  // the stopped attempt's outcome no longer counts
            defer { state.running = nil }
            return .some(state.running)
        }
        guard let running else { return }
        running?.cancel()
        session.post(.taskDidSuspend(self))
    }

    /// Cancels the task; it completes with `URLError.cancelled`.
    public func cancel() {
        _ = cancelTransfer()
    }

    /// Cancels a download and returns data a new task can continue from (`nil` for other kinds, or when nothing
    /// was received yet).
    public func cancelProducingResumeData() async -> Data? {
        let running = cancelTransfer()
        await running?.value
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

    private func cancelTransfer() -> Task<Void, Never>? {
        let outcome = storage.withLock { state -> (effect: SessionTaskLifecycle.Effect, running: Task<Void, Never>?) in
            let effect = state.lifecycle.cancel()
            guard effect == .cancelTransfer else { return (effect, nil) }
            state.attempt += 1
            defer { state.running = nil }
            return (effect, state.running)
        }
        guard outcome.effect == .cancelTransfer else { return nil }
        outcome.running?.cancel()
        let error = URLError(.cancelled, failingURL: originalRequest.url, reason: "cancelled")
        finish(SessionTaskResult(response: response, error: error), keepPartialFile: kind == .download)
        return outcome.running
    }

    // MARK: - Running a transfer

    private func isCurrent(_ attempt: Int) -> Bool {
        storage.withLock { $0.attempt == attempt && $0.lifecycle.state == .running }
    }

    private func run(attempt: Int) async {
        if let offline = session.reachabilityFailure(for: originalRequest) {
            guard isCurrent(attempt) else { return }
            finish(SessionTaskResult(response: response, error: offline), keepPartialFile: kind == .download)
            return
        }
        let (request, resumedOffset) = prepareRequest()
        var base: Int64 = 0
        do {
            let response = try await session.transport.send(request) { event in
                guard isCurrent(attempt) else { return }
                switch event {
                case .responseHead(let head):
                    base = head.statusCode == 206 ? resumedOffset : 0
                    storage.withLock { $0.response = head }
                    if request.method != .head, let length = head.expectedContentLength {
                        downloadProgress.setTotalUnitCount(base + length)
                    }
                case .uploadProgress(let progress):
                    update(uploadProgress, progress, base: 0, handler: handlers.uploadProgress)
                case .downloadProgress(let progress):
                    update(downloadProgress, progress, base: base, handler: handlers.downloadProgress)
                case .bodyChunk, .completed:
                    break
                }
            }
            guard isCurrent(attempt) else { return }
            await complete(with: response)
        } catch {
            guard isCurrent(attempt) else { return }
            finish(SessionTaskResult(response: self.response, error: error, metrics: nil), keepPartialFile: kind == .download)
        }
    }

    /// The request for the next attempt: a download writes to its partial file, continuing from what is there.
    private func prepareRequest() -> (HTTPRequest, Int64) {
        guard kind == .download else { return (originalRequest, 0) }
        let (existing, resumeFrom) = storage.withLock { ($0.partialFile, $0.resumeFrom) }
        let file = existing ?? session.temporaryDownloadFile(for: taskIdentifier)
        storage.withLock { $0.partialFile = file }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)??.int64Value ?? 0
        let resume = resumeFrom ?? DownloadResumeData(request: originalRequest, partialFile: file, response: response)
        return (resume.continuationRequest(from: size, template: originalRequest), size)
    }

    private func update(_ progress: Progress, _ value: TransferProgress, base: Int64, handler: (@Sendable (Progress) -> Void)?) {
        if let total = value.total { progress.setTotalUnitCount(base + total) }
        progress.completedUnitCount = base + value.completed
        if let handler { session.completionQueue.async { handler(progress) } }
    }

    private func complete(with response: HTTPResponse) async {
        markFinished(uploadProgress, handler: handlers.uploadProgress, skipIfUnstarted: true)
        markFinished(downloadProgress, handler: handlers.downloadProgress, skipIfUnstarted: false)
        switch response.body {
        case .file(let temporary, _):
            finish(session.moveDownload(of: self, from: temporary, response: response, destination: handlers.destination),
                   keepPartialFile: false)
        case .data(let data):
            finish(session.serialize(response: response, data: data), keepPartialFile: false)
        case .streamed:
            finish(session.serialize(response: response, data: nil), keepPartialFile: false)
        }
    }

    private func markFinished(_ progress: Progress, handler: (@Sendable (Progress) -> Void)?, skipIfUnstarted: Bool) {
        if skipIfUnstarted && progress.completedUnitCount == 0 && progress.totalUnitCount <= 0 { return }
        let done = max(progress.completedUnitCount, progress.totalUnitCount, 0)
        progress.setTotalUnitCount(done)
        progress.completedUnitCount = done
        if let handler { session.completionQueue.async { handler(progress) } }
    }

    /// Delivers the result once: to waiters, the completion handler, notifications and event streams. Delivery goes
    /// through the completion queue, after the progress callbacks already queued there, so whoever sees the result
    /// has seen the final progress too.
    private func finish(_ result: SessionTaskResult, keepPartialFile: Bool) {
        let partial = storage.withLock { state -> URL?? in
            guard !state.isFinishing else { return nil }
            state.isFinishing = true
            _ = state.lifecycle.complete()
            return .some(state.partialFile)
        }
        guard let partial else { return }
        if !keepPartialFile, let partial, partial != result.fileURL {
            try? FileManager.default.removeItem(at: partial)
        }
        session.completionQueue.async { [self] in
            let waiters = storage.withLock { state in
                state.result = result
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            handlers.completion?(result)
            for waiter in waiters { waiter.resume(returning: result) }
            session.taskDidFinish(self, result: result)
        }
    }
}
