import Foundation
import Logging

/// Sees every task event of the managers it is given to (``SessionManager/monitors``), synchronously and in order,
/// as it happens: creation, resume and suspension, each redirect hop, each retry, metrics, completion (Alamofire's
/// `EventMonitor`). Keep it quick: it runs on the thread that made the event.
///
/// ```swift
/// struct Counting: SessionEventMonitor {
///     let hops = Mutex(0)
///     func session(_ manager: SessionManager, didEmit event: SessionEvent) {
///         if case .taskWillPerformHTTPRedirection = event { hops.withLock { $0 += 1 } }
///     }
/// }
/// ```
public protocol SessionEventMonitor: Sendable {
    /// `event` happened in `manager`.
    func session(_ manager: SessionManager, didEmit event: SessionEvent)
}

/// A monitor that logs every task event through swift-log: creation and hops at `debug` (with the request as a
/// `curl` command, secrets masked, at `trace`), retries at `notice`, completion at `info` (or `warning` with its error).
///
/// ```swift
/// manager.monitors = [LoggingEventMonitor(logger: Logger(label: "com.example.network"))]
/// // info: GET https://api.example.com/me → 200 in 0.120 s [task: 3]
/// ```
public struct LoggingEventMonitor: SessionEventMonitor {
    /// Where the lines go.
    public let logger: Logger

    /// A monitor logging to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    public func session(_ manager: SessionManager, didEmit event: SessionEvent) {
        switch event {
        case .taskDidCreate(let task):
            logger.debug("created \(task.originalRequest.method.rawValue) \(task.originalRequest.url.absoluteString)", metadata: metadata(task))
            logger.trace("\(task.originalRequest.curlDescription)", metadata: metadata(task))
        case .taskDidResume(let task):
            logger.debug("resumed", metadata: metadata(task))
        case .taskDidSuspend(let task):
            logger.debug("suspended", metadata: metadata(task))
        case .taskWillPerformHTTPRedirection(let task, let head, let next):
            logger.debug("\(head.statusCode) redirect to \(next.method.rawValue) \(next.url.absoluteString)", metadata: metadata(task))
        case .taskWillRetry(let task, let attempt, let failure):
            let reason = failure.response.map { "status \($0.statusCode)" } ?? failure.error.map { "\($0)" } ?? "failure"
            logger.notice("retry \(attempt) after \(reason)", metadata: metadata(task))
        case .taskDidFinishCollectingMetrics(let task, let metrics):
            logger.trace("metrics: \(metrics.total) s total, \(metrics.bytesReceived) bytes received", metadata: metadata(task))
        case .taskDidComplete(let task, let result):
            let request = "\(task.originalRequest.method.rawValue) \(task.originalRequest.url.absoluteString)"
            let time = result.metrics.map { String(format: " in %.3f s", $0.total) } ?? ""
            if let error = result.error {
                logger.warning("\(request) failed\(time): \(error)", metadata: metadata(task))
            } else {
                logger.info("\(request) → \(result.response?.statusCode ?? 0)\(time)", metadata: metadata(task))
            }
        case .downloadDidMoveFile(let task, let url):
            logger.debug("download moved to \(url.path)", metadata: metadata(task))
        case .downloadDidFailToMoveFile(let task, let error):
            logger.warning("download could not be moved: \(error)", metadata: metadata(task))
        }
    }

    private func metadata(_ task: SessionTask) -> Logger.Metadata {
        ["task": "\(task.taskIdentifier)"]
    }
}
