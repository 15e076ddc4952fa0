import Foundation

extension SessionManager {
    /// A stream of every task event from now on (each call makes an independent stream).
    ///
    /// ```swift
    /// for await event in manager.events() {
    ///     if case .taskDidComplete(let task, let result) = event { print(task.taskIdentifier, result.error == nil) }
    /// }
    /// ```
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream()
        let id = UUID()
        registry.withLock { $0.observers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.registry.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The monitors every task event is handed to, synchronously and in order, as it happens (Alamofire's
    /// `EventMonitor`s): see ``SessionEventMonitor`` and the ready ``LoggingEventMonitor``.
    ///
    /// ```swift
    /// manager.monitors = [LoggingEventMonitor(logger: Logger(label: "network"))]
    /// ```
    public var monitors: [any SessionEventMonitor] {
        get { registry.withLock { $0.monitors } }
        set { registry.withLock { $0.monitors = newValue } }
    }

    /// Tells the monitors, the event streams and the notification center about `event`.
    func post(_ event: SessionEvent) {
        let (monitors, observers) = registry.withLock { registry in
            (registry.monitors, registry.observers.isEmpty ? [] : Array(registry.observers.values))
        }
        if monitors.isEmpty, observers.isEmpty, !event.isNotification { return }
        for monitor in monitors { monitor.session(self, didEmit: event) }
        for observer in observers { observer.yield(event) }
        switch event {
        case .taskDidResume(let task):
            notificationCenter.post(name: .tapedeckTaskDidResume, object: task)
        case .taskDidSuspend(let task):
            notificationCenter.post(name: .tapedeckTaskDidSuspend, object: task)
        case .taskDidComplete(let task, let result):
            // Only what the result has: assigning `nil` would look each missing key up to remove it. (Built with
            // `String` keys: measured cheaper, conversion to the notification's `[AnyHashable: Any]` included, than
            // building that dictionary directly.)
            var info = [String: Any](minimumCapacity: 6)
            if let response = result.response { info[SessionNotificationKey.response] = response }
            if let value = result.value { info[SessionNotificationKey.serializedResponse] = value }
            if let data = result.data { info[SessionNotificationKey.responseData] = data }
            if let error = result.error { info[SessionNotificationKey.error] = error }
            if let metrics = result.metrics { info[SessionNotificationKey.metrics] = metrics }
            if let fileURL = result.fileURL { info[SessionNotificationKey.fileURL] = fileURL }
            notificationCenter.post(name: .tapedeckTaskDidComplete, object: task, userInfo: info)
        case .downloadDidMoveFile(let task, let url):
            notificationCenter.post(name: .tapedeckDownloadDidMoveFile, object: task, userInfo: [SessionNotificationKey.fileURL: url])
        case .downloadDidFailToMoveFile(let task, let error):
            notificationCenter.post(name: .tapedeckDownloadDidFailToMoveFile, object: task, userInfo: [SessionNotificationKey.error: error])
        case .taskDidCreate, .taskWillPerformHTTPRedirection, .taskWillRetry, .taskDidFinishCollectingMetrics:
            break  // AFNetworking has no notification for these
        }
    }
}
