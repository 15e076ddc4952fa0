import Foundation

/// One attempt of a task: its request goes to the transport, the transport's events become the task's response and
/// progress, and the response becomes the task's result (serialized, or a download moved to its destination).
extension SessionTask {
    private func isCurrent(_ attempt: Int) -> Bool {
        storage.withLock { $0.isRunning(attempt) }
    }

    /// What an attempt's transfer came to, before it becomes the task's result.
    enum TransferOutcome: Sendable {
        case response(HTTPResponse)
        case failure(any Error)
    }

    /// Runs `attempt` from start to result.
    func perform(attempt: Int) async {
        conclude(await transfer(attempt: attempt), attempt: attempt)
    }

    /// The attempt's transfer through the session pipeline: the part that waits for the network, which ``run()``
    /// runs on the transport's own executor when it has one.
    func transfer(attempt: Int) async -> TransferOutcome {
        let settings = manager.currentSettings
        if let offline = Self.reachabilityFailure(for: originalRequest, settings: settings) { return .failure(offline) }
        let (request, resumedOffset) = prepareRequest()
        do {
            return .response(try await pipeline(settings).send(request, over: manager.transport, onEvent: { event in
                self.handle(event, of: attempt, method: request.method, resumedOffset: resumedOffset)
            }))
        } catch {
            return .failure(error)
        }
    }

    /// Makes the task's result of what the transfer came to (serialized, or a download moved to its destination),
    /// unless the attempt was superseded meanwhile (suspended, cancelled).
    func conclude(_ outcome: TransferOutcome, attempt: Int) {
        guard isCurrent(attempt) else { return }
        switch outcome {
        case .response(let response):
            complete(with: response)
        case .failure(let error):
            finish(SessionTaskResult(response: self.response, error: error, metrics: nil), keepPartialFile: kind == .download)
        }
    }

    /// The session's one pipeline, with this task's own handlers first and its redirects and retries posted as the
    /// task's events.
    private func pipeline(_ settings: SessionManager.Settings) -> SessionPipeline {
        let (redirectHandler, challengeHandler) = storage.withLock { ($0.redirectHandler, $0.challengeHandler) }
        var pipeline = SessionPipeline(
            cookies: settings.cookieStore, cache: settings.cache, credentialStore: settings.credentialStore,
            nonceCounter: settings.nonceCounter, challengeHandler: challengeHandler ?? settings.challengeHandler,
            interceptor: settings.interceptor, clock: settings.clock, recordedTimeListener: settings.recordedTimeListener
        )
        if let decide = redirectHandler ?? settings.redirectHandler {
            pipeline.redirectHandler = { [self] head, proposed in await decide(self, head, proposed) }
        }
        pipeline.willRedirect = { [self] head, next in manager.post(.taskWillPerformHTTPRedirection(self, head, next)) }
        pipeline.willRetry = { [self] attempt, failure in manager.post(.taskWillRetry(self, attempt: attempt, after: failure)) }
        pipeline.taskIdentifier = taskIdentifier
        return pipeline
    }

    /// The error a transfer fails with instead of starting: `notConnectedToInternet` while the attached reachability
    /// manager reports `.notReachable` (and failing fast is on); otherwise `nil`.
    private static func reachabilityFailure(for request: HTTPRequest, settings: SessionManager.Settings) -> URLError? {
        guard settings.failsWhenNotReachable, let reachability = settings.reachability,
              reachability.networkReachabilityStatus == .notReachable else { return nil }
        return URLError(.notConnectedToInternet, failingURL: request.url,
                        reason: "The Internet connection appears to be offline (the reachability manager for "
                            + "\(reachability.target) reported not reachable), so the request was not sent.")
    }

    /// The request for the next attempt: a download writes to its partial file, continuing from what is there.
    private func prepareRequest() -> (HTTPRequest, Int64) {
        guard kind == .download else { return (originalRequest, 0) }
        let (existing, resumeFrom) = storage.withLock { ($0.partialFile, $0.resumeFrom) }
        let file = existing ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("tapedeck-download-\(taskIdentifier)-\(UUID().uuidString).tmp")
        storage.withLock { $0.partialFile = file }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)??.int64Value ?? 0
        let resume = resumeFrom ?? DownloadResumeData(request: originalRequest, partialFile: file, response: response)
        return (resume.continuationRequest(from: size, template: originalRequest), size)
    }

    private func handle(_ event: HTTPTransportEvent, of attempt: Int, method: HTTPMethod, resumedOffset: Int64) {
        switch event {
        case .responseHead(let head):
            let base = head.statusCode == 206 ? resumedOffset : 0
            let current = storage.withLock { state -> Bool in
                guard state.isRunning(attempt) else { return false }
                state.response = head
                state.progressBase = base
                return true
            }
            if current, method != .head, let length = head.expectedContentLength {
                downloadProgress.setTotalUnitCount(base + length)
            }
        case .uploadProgress(let progress):
            guard isCurrent(attempt) else { return }
            update(uploadProgress, progress, base: 0, handler: handlers.uploadProgress)
        case .downloadProgress(let progress):
            let base = storage.withLock { $0.isRunning(attempt) ? $0.progressBase : nil }
            guard let base else { return }
            update(downloadProgress, progress, base: base, handler: handlers.downloadProgress)
        case .bodyChunk(let chunk):
            // Only the final response's chunks come here (the pipeline holds back a hop it follows or retries).
            guard let receive = handlers.receivedData, isCurrent(attempt) else { return }
            manager.completionQueue.async { receive(chunk) }
        case .completed:
            break
        }
    }

    private func update(_ progress: Progress, _ value: TransferProgress, base: Int64, handler: (@Sendable (Progress) -> Void)?) {
        if let total = value.total { progress.setTotalUnitCount(base + total) }
        progress.completedUnitCount = base + value.completed
        if let handler { manager.completionQueue.async { handler(progress) } }
    }

    private func complete(with response: HTTPResponse) {
        markFinished(uploadProgress, handler: handlers.uploadProgress, skipIfUnstarted: true)
        markFinished(downloadProgress, handler: handlers.downloadProgress, skipIfUnstarted: false)
        switch response.body {
        case .file(let temporary, _):
            finish(moveDownload(from: temporary, response: response), keepPartialFile: false)
        case .data(let data):
            finish(serialize(response, data: data), keepPartialFile: false)
        case .streamed:
            finish(serialize(response, data: nil), keepPartialFile: false)
        }
    }

    private func markFinished(_ progress: Progress, handler: (@Sendable (Progress) -> Void)?, skipIfUnstarted: Bool) {
        if skipIfUnstarted && progress.completedUnitCount == 0 && progress.totalUnitCount <= 0 { return }
        let done = max(progress.completedUnitCount, progress.totalUnitCount, 0)
        progress.setTotalUnitCount(done)
        progress.completedUnitCount = done
        if let handler { manager.completionQueue.async { handler(progress) } }
    }

    private func serialize(_ response: HTTPResponse, data: Data?) -> SessionTaskResult {
        var result = SessionTaskResult(response: response.head, data: data, metrics: response.metrics)
        do {
            result.value = try manager.responseSerializer.serialize(head: response.head, data: data)
        } catch {
            result.error = error
        }
        return result
    }

    /// Moves a finished download to where the destination closure says, replacing what is there; without a
    /// destination the file stays at its temporary location.
    private func moveDownload(from temporary: URL, response: HTTPResponse) -> SessionTaskResult {
        var result = SessionTaskResult(response: response.head, metrics: response.metrics)
        guard let destination = handlers.destination else {
            result.fileURL = temporary
            result.value = temporary
            return result
        }
        let target = destination(temporary, response.head)
        do {
            if FileManager.default.fileExists(atPath: target.path) {
                try FileManager.default.removeItem(at: target)
            }
            try FileManager.default.moveItem(at: temporary, to: target)
            result.fileURL = target
            result.value = target
            manager.post(.downloadDidMoveFile(self, target))
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            result.error = error
            manager.post(.downloadDidFailToMoveFile(self, error))
        }
        return result
    }
}
