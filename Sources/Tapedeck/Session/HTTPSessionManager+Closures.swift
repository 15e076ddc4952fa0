import Foundation
import TapedeckCore

/// The AFNetworking-style verbs: each creates a task, starts it, and reports through progress, success and failure
/// closures run on the completion queue. An adapter over the same tasks the async verbs run.
extension HTTPSessionManager {
    /// Creates and starts a task for `method` and `path`, AFNetworking style. When the request cannot be serialized,
    /// no task is created (the result is `nil`) and `failure` runs asynchronously on the completion queue with the
    /// serialization error.
    @discardableResult
    public func dataTask(
        _ method: HTTPMethod, _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        uploadProgress: (@Sendable (Progress) -> Void)? = nil,
        downloadProgress: (@Sendable (Progress) -> Void)? = nil,
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)? = nil,
        failure: (@Sendable (SessionTask?, any Error) -> Void)? = nil
    ) -> SessionTask? {
        start({ try makeRequest(method, path, parameters: parameters, headers: headers) }, success: success, failure: failure) {
            session.dataTask(with: $0, uploadProgress: uploadProgress, downloadProgress: downloadProgress, completion: $1)
        }
    }

    /// Serializes a request, creates its task with `makeTask` and starts it, reporting the result to `success` or
    /// `failure`. When the request cannot be serialized no task is created, and `failure` runs asynchronously on the
    /// completion queue with the serialization error.
    private func start(
        _ serialize: () throws -> HTTPRequest,
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?,
        makeTask: (HTTPRequest, @escaping @Sendable (SessionTaskResult) -> Void) -> SessionTask
    ) -> SessionTask? {
        let request: HTTPRequest
        do {
            request = try serialize()
        } catch {
            if let failure { completionQueue.async { failure(nil, error) } }
            return nil
        }
        let box = TaskBox()
        let task = makeTask(request) { result in
            let task = box.take()
            if let error = result.error { failure?(task, error) } else if let task { success?(task, result.value) }
        }
        box.task = task
        task.resume()
        return task
    }

    /// `GET`, AFNetworking style.
    @discardableResult
    public func get(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        progress: (@Sendable (Progress) -> Void)? = nil,
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?
    ) -> SessionTask? {
        dataTask(.get, path, parameters: parameters, headers: headers, downloadProgress: progress, success: success, failure: failure)
    }

    /// `POST`, AFNetworking style.
    @discardableResult
    public func post(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        progress: (@Sendable (Progress) -> Void)? = nil,
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?
    ) -> SessionTask? {
        dataTask(.post, path, parameters: parameters, headers: headers, uploadProgress: progress, success: success, failure: failure)
    }

    /// Multipart `POST`, AFNetworking style.
    @discardableResult
    public func post(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        constructingBody: (inout MultipartFormData) throws -> Void,
        progress: (@Sendable (Progress) -> Void)? = nil,
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?
    ) -> SessionTask? {
        start({ try makeMultipartRequest(path, parameters: parameters, headers: headers, constructingBody: constructingBody) },
              success: success, failure: failure) {
            session.uploadTask(with: $0, from: $0.body, progress: progress, completion: $1)
        }
    }

    /// `HEAD`, AFNetworking style.
    @discardableResult
    public func head(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        success: (@Sendable (SessionTask) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?
    ) -> SessionTask? {
        dataTask(.head, path, parameters: parameters, headers: headers, success: { task, _ in success?(task) }, failure: failure)
    }

    /// `PUT`, AFNetworking style.
    @discardableResult
    public func put(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?
    ) -> SessionTask? {
        dataTask(.put, path, parameters: parameters, headers: headers, success: success, failure: failure)
    }

    /// `PATCH`, AFNetworking style.
    @discardableResult
    public func patch(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?
    ) -> SessionTask? {
        dataTask(.patch, path, parameters: parameters, headers: headers, success: success, failure: failure)
    }

    /// `DELETE`, AFNetworking style.
    @discardableResult
    public func delete(
        _ path: String, parameters: JSONValue? = nil, headers: HTTPHeaders = [:],
        success: (@Sendable (SessionTask, (any Sendable)?) -> Void)?,
        failure: (@Sendable (SessionTask?, any Error) -> Void)?
    ) -> SessionTask? {
        dataTask(.delete, path, parameters: parameters, headers: headers, success: success, failure: failure)
    }
}

/// Hands a task to its own completion closure, which is created before the task exists. The task keeps that closure
/// and the closure keeps the box, so the closure takes the task out when it runs: a box still holding it would keep
/// the task, its manager and its transport alive for good (a cycle LeakSanitizer reported).
final class TaskBox: Sendable {
    private let storage = Locked<SessionTask?>(nil)
    var task: SessionTask? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// The task, leaving the box empty.
    func take() -> SessionTask? {
        storage.withLock { task in
            defer { task = nil }
            return task
        }
    }
}
