import Foundation
import Tapedeck

/// Downloads from the download service to files, with progress and resume.
///
/// ```swift
/// let download = try network.download.start("files/report.pdf", to: destination) { print($0.fractionCompleted) }
/// let resumeData = await download.cancelProducingResumeData()     // e.g. when the app goes to the background
/// let file = try await network.download.resume(from: resumeData!, to: destination).finished()
/// ```
public final class DownloadService: Sendable {
    /// The client this service configures: base URL, serializer, security policy, reachability.
    public let api: HTTPSessionManager

    init(config: NetworkConfig, transport: any HTTPTransport, policy: SecurityPolicy,
         reachability: NetworkReachabilityManager?) throws(SecurityPolicyError) {
        api = try config.client(baseURL: config.downloadBaseURL, transport: transport, policy: policy, reachability: reachability,
                                requestSerializer: config.requestSerializer())
    }

    /// A running download of `path` into `destination` (replaced if it exists).
    public struct Download: Sendable {
        /// The underlying task (progress, state, response).
        public let task: SessionTask

        /// Waits for the file.
        ///
        /// - Throws: the transport's `URLError`, or the error that stopped the file from being moved; a status
        ///   outside 200–299 is `URLError.badServerResponse` with the status in its message.
        public func finished() async throws -> URL {
            let result = await task.result
            if let error = result.error { throw error }
            if let status = result.response?.statusCode, !(200..<300).contains(status) {
                if let file = result.fileURL { try? FileManager.default.removeItem(at: file) }
                throw URLError(.badServerResponse, failingURL: task.originalRequest.url,
                               reason: "the download answered HTTP \(status)")
            }
            guard let file = result.fileURL else {
                throw URLError(.cannotCreateFile, failingURL: task.originalRequest.url, reason: "the download produced no file")
            }
            return file
        }

        /// Cancels the download and returns what a later ``DownloadService/resume(from:to:progress:)`` continues from.
        public func cancelProducingResumeData() async -> Data? {
            await task.cancelProducingResumeData()
        }
    }

    /// Starts downloading `path` into `destination`.
    public func start(
        _ path: String, to destination: URL, progress: (@Sendable (Progress) -> Void)? = nil
    ) throws -> Download {
        let task = try api.download(path, progress: progress, destination: { _, _ in destination })
        return Download(task: task)
    }

    /// Downloads `path` into `destination` and returns the file's URL.
    public func download(
        _ path: String, to destination: URL, progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> URL {
        try await start(path, to: destination, progress: progress).finished()
    }

    /// Continues a cancelled download from its resume data (with a `Range` request; a server that ignores it
    /// restarts the file cleanly).
    public func resume(
        from resumeData: Data, to destination: URL, progress: (@Sendable (Progress) -> Void)? = nil
    ) throws -> Download {
        let task = try api.session.downloadTask(withResumeData: resumeData, progress: progress, destination: { _, _ in destination })
        task.resume()
        return Download(task: task)
    }
}
