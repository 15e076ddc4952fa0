import Foundation

/// Something that happened to a session manager's task; also posted as a `Notification`.
public enum SessionEvent: Sendable {
    /// The task was created (it starts suspended). Only for monitors and ``SessionManager/events()``, not posted as a
    /// notification.
    case taskDidCreate(SessionTask)
    /// The task started or restarted.
    case taskDidResume(SessionTask)
    /// The task was paused.
    case taskDidSuspend(SessionTask)
    /// The task finished.
    case taskDidComplete(SessionTask, SessionTaskResult)
    /// A download's file was moved to its destination.
    case downloadDidMoveFile(SessionTask, URL)
    /// A download's file could not be moved to its destination.
    case downloadDidFailToMoveFile(SessionTask, any Error)
    /// The task follows a redirect: the `3xx` head and the request it sends next (each hop is its own transport
    /// request). Only in ``SessionManager/events()``, not posted as a notification.
    case taskWillPerformHTTPRedirection(SessionTask, HTTPResponseHead, HTTPRequest)
    /// The task's interceptor decided to send the request again after this failure; `attempt` counts from 1 for the
    /// first retry. Only in ``SessionManager/events()``, not posted as a notification.
    case taskWillRetry(SessionTask, attempt: Int, after: RequestFailure)
    /// The task's timings and sizes are known (AFNetworking's `setTaskDidFinishCollectingMetricsBlock:`); posted just
    /// before ``taskDidComplete(_:_:)`` when the transfer produced metrics. Only for monitors and
    /// ``SessionManager/events()``.
    case taskDidFinishCollectingMetrics(SessionTask, TransferMetrics)
}

extension SessionEvent {
    /// Whether the event is also posted as a notification (AFNetworking has notifications for these only).
    var isNotification: Bool {
        switch self {
        case .taskDidResume, .taskDidSuspend, .taskDidComplete, .downloadDidMoveFile, .downloadDidFailToMoveFile: true
        case .taskDidCreate, .taskWillPerformHTTPRedirection, .taskWillRetry, .taskDidFinishCollectingMetrics: false
        }
    }
}

/// The notifications a ``SessionManager`` and a ``NetworkReachabilityManager`` post, AFNetworking's under new names.
extension Notification.Name {
    /// Posted when a task starts or restarts; the object is the ``SessionTask``.
    public static let tapedeckTaskDidResume = Notification.Name("com.tapedeck.networking.task.resume")
    /// Posted when a task is paused; the object is the ``SessionTask``.
    public static let tapedeckTaskDidSuspend = Notification.Name("com.tapedeck.networking.task.suspend")
    /// Posted when a task finishes; the object is the ``SessionTask``, `userInfo` holds the ``SessionNotificationKey``s.
    public static let tapedeckTaskDidComplete = Notification.Name("com.tapedeck.networking.task.complete")
    /// Posted when a download's file reached its destination; `userInfo[.fileURL]` is where.
    public static let tapedeckDownloadDidMoveFile = Notification.Name("com.tapedeck.networking.download.move")
    /// Posted when a download's file could not be moved; `userInfo[.error]` says why.
    public static let tapedeckDownloadDidFailToMoveFile = Notification.Name("com.tapedeck.networking.download.move-failed")
}

/// `userInfo` keys of the session notifications (AFNetworking's `AFNetworkingTaskDidComplete…Key`s).
public enum SessionNotificationKey {
    /// The `HTTPResponseHead`.
    public static let response = "com.tapedeck.networking.task.complete.response"
    /// The serialized response object.
    public static let serializedResponse = "com.tapedeck.networking.task.complete.serializedresponse"
    /// The raw body `Data`.
    public static let responseData = "com.tapedeck.networking.task.complete.responsedata"
    /// The error.
    public static let error = "com.tapedeck.networking.task.complete.error"
    /// The `TransferMetrics`.
    public static let metrics = "com.tapedeck.networking.task.complete.sessiontaskmetrics"
    /// A download's final file URL.
    public static let fileURL = "com.tapedeck.networking.task.complete.assetpath"
}
