import Foundation
import Synchronization

/// What a manager's tasks share: the transport, where completions run, how responses are serialized, and who
/// hears about events. Tasks keep it alive while they run.
final class SessionCore: Sendable {
    let transport: any HTTPTransport
    let notificationCenter: NotificationCenter
    private let settings: Mutex<Settings>
    private let registry = Mutex(Registry())

    struct Settings: Sendable {
        var completionQueue: DispatchQueue
        var responseSerializer: any ResponseSerializer
        var reachability: NetworkReachabilityManager?
        var failsWhenNotReachable: Bool
    }

    private struct Registry {
        var nextIdentifier = 1
        var tasks: [Int: SessionTask] = [:]
        var invalidated = false
        var observers: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    init(transport: any HTTPTransport, responseSerializer: any ResponseSerializer, completionQueue: DispatchQueue,
         notificationCenter: NotificationCenter, reachability: NetworkReachabilityManager? = nil,
         failsWhenNotReachable: Bool = true) {
        self.transport = transport
        self.notificationCenter = notificationCenter
        settings = Mutex(Settings(completionQueue: completionQueue, responseSerializer: responseSerializer,
                                  reachability: reachability, failsWhenNotReachable: failsWhenNotReachable))
    }

    var completionQueue: DispatchQueue {
        get { settings.withLock { $0.completionQueue } }
        set { settings.withLock { $0.completionQueue = newValue } }
    }

    var responseSerializer: any ResponseSerializer {
        get { settings.withLock { $0.responseSerializer } }
        set { settings.withLock { $0.responseSerializer = newValue } }
    }

    var reachability: NetworkReachabilityManager? {
        get { settings.withLock { $0.reachability } }
        set { settings.withLock { $0.reachability = newValue } }
    }

    var failsWhenNotReachable: Bool {
        get { settings.withLock { $0.failsWhenNotReachable } }
        set { settings.withLock { $0.failsWhenNotReachable = newValue } }
    }

    /// The error a transfer of `request` fails with instead of starting: `notConnectedToInternet` while the
    /// attached reachability manager reports `.notReachable` (and failing fast is on); otherwise `nil`.
    func reachabilityFailure(for request: HTTPRequest) -> URLError? {
        let (reachability, failsFast) = settings.withLock { ($0.reachability, $0.failsWhenNotReachable) }
        guard failsFast, let reachability, reachability.networkReachabilityStatus == .notReachable else { return nil }
        return URLError(.notConnectedToInternet, failingURL: request.url,
                        reason: "The Internet connection appears to be offline (the reachability manager for "
                            + "\(reachability.target) reported not reachable), so the request was not sent.")
    }

    // MARK: Tasks

    /// Registers a new task, or returns `nil` once the session is invalidated.
    func makeTask(_ build: (Int) -> SessionTask) -> SessionTask? {
        registry.withLock { registry in
            guard !registry.invalidated else { return nil }
            let task = build(registry.nextIdentifier)
            registry.nextIdentifier += 1
            registry.tasks[task.taskIdentifier] = task
            return task
        }
    }

    var tasks: [SessionTask] {
        registry.withLock { $0.tasks.values.sorted { $0.taskIdentifier < $1.taskIdentifier } }
    }

    /// Stops accepting tasks; returns the ones still registered.
    func invalidate() -> [SessionTask] {
        registry.withLock { registry in
            registry.invalidated = true
            return Array(registry.tasks.values)
        }
    }

    var isInvalidated: Bool { registry.withLock { $0.invalidated } }

    func taskDidFinish(_ task: SessionTask, result: SessionTaskResult) {
        let idle = registry.withLock { registry -> [CheckedContinuation<Void, Never>] in
            registry.tasks[task.taskIdentifier] = nil
            guard registry.tasks.isEmpty else { return [] }
            defer { registry.idleWaiters.removeAll() }
            return registry.idleWaiters
        }
        post(.taskDidComplete(task, result))
        for waiter in idle { waiter.resume() }
    }

    /// Waits until no task is registered.
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = registry.withLock { registry -> Bool in
                if registry.tasks.isEmpty { return true }
                registry.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    // MARK: Events

    func makeEventStream() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream()
        let id = UUID()
        registry.withLock { $0.observers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.registry.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    func post(_ event: SessionEvent) {
        for observer in registry.withLock({ Array($0.observers.values) }) { observer.yield(event) }
        switch event {
        case .taskDidResume(let task):
            notificationCenter.post(name: .tapedeckTaskDidResume, object: task)
        case .taskDidSuspend(let task):
            notificationCenter.post(name: .tapedeckTaskDidSuspend, object: task)
        case .taskDidComplete(let task, let result):
            var info: [String: Any] = [:]
            info[SessionNotificationKey.response] = result.response
            info[SessionNotificationKey.serializedResponse] = result.value
            info[SessionNotificationKey.responseData] = result.data
            info[SessionNotificationKey.error] = result.error
            info[SessionNotificationKey.metrics] = result.metrics
            info[SessionNotificationKey.fileURL] = result.fileURL
            notificationCenter.post(name: .tapedeckTaskDidComplete, object: task, userInfo: info)
        case .downloadDidMoveFile(let task, let url):
            notificationCenter.post(name: .tapedeckDownloadDidMoveFile, object: task, userInfo: [SessionNotificationKey.fileURL: url])
        case .downloadDidFailToMoveFile(let task, let error):
            notificationCenter.post(name: .tapedeckDownloadDidFailToMoveFile, object: task, userInfo: [SessionNotificationKey.error: error])
        }
    }

    // MARK: Results

    func serialize(response: HTTPResponse, data: Data?) -> SessionTaskResult {
        var result = SessionTaskResult(response: response.head, data: data, metrics: response.metrics)
        do {
            result.value = try responseSerializer.serialize(head: response.head, data: data)
        } catch {
            result.error = error
        }
        return result
    }

    func temporaryDownloadFile(for identifier: Int) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-download-\(identifier)-\(UUID().uuidString).tmp")
    }

    /// Moves a finished download to where `destination` says, replacing what is there; without a destination the
    /// file stays at its temporary location.
    func moveDownload(
        of task: SessionTask, from temporary: URL, response: HTTPResponse,
        destination: (@Sendable (URL, HTTPResponseHead) -> URL)?
    ) -> SessionTaskResult {
        var result = SessionTaskResult(response: response.head, metrics: response.metrics)
        guard let destination else {
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
            post(.downloadDidMoveFile(task, target))
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            result.error = error
            post(.downloadDidFailToMoveFile(task, error))
        }
        return result
    }
}
