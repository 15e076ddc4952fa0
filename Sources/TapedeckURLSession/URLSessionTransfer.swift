import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TapedeckCore

/// One request in flight through ``URLSessionTransport``: where its body goes, its events, and how it ends. The
/// session's delegate feeds it; the caller waits on it.
final class URLSessionTransfer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var head: HTTPResponseHead?
        var sink: BodySink
        var resumedLength: Int64 = 0
        var received: Int64 = 0
        var sent: Int64 = 0
        var firstByte: ContinuousClock.Instant?
        var timedOut = false
        /// FoundationNetworking offered an authentication challenge, which ends the transfer after the head.
        var stoppedAtChallenge = false
        var failure: URLError?
    }

    /// Where the response body goes.
    private enum BodySink {
        case memory(Data)
        case file(FileHandle, URL)
        case stream
        /// A resumed download before its head says whether the range was honoured.
        case pendingResume(URL, existingLength: Int64)
    }

    private let request: HTTPRequest
    private let onEvent: HTTPEventHandler?
    private let started = ContinuousClock.now
    private let state: Mutex<State>

    /// Opens the body's destination; throws `URLError.cannotCreateFile` when a file cannot be created.
    init(request: HTTPRequest, onEvent: HTTPEventHandler?) throws {
        self.request = request
        self.onEvent = onEvent
        let sink: BodySink
        switch request.responseBody {
        case .memory: sink = .memory(Data())
        case .stream: sink = .stream
        case .file(let file): sink = .file(try Self.open(file, truncating: true, for: request.url), file)
        case .resumingFile(let file, let existingLength): sink = .pendingResume(file, existingLength: max(0, existingLength))
        }
        state = Mutex(State(sink: sink))
    }

    private static func open(_ file: URL, truncating: Bool, for url: URL) throws -> FileHandle {
        if truncating || !FileManager.default.fileExists(atPath: file.path) {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw URLError(.cannotCreateFile, failingURL: url, reason: "cannot create \(file.path)")
            }
        }
        do {
            return try FileHandle(forWritingTo: file)
        } catch {
            throw URLError(.cannotCreateFile, failingURL: url, reason: "cannot open \(file.path): \(error)")
        }
    }

    func start(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// The request's `totalTimeout` passed: the cancellation that follows is reported as a time-out.
    func markTimedOut() { state.withLock { $0.timedOut = true } }

    /// The `401`/`407` is delivered as it is; the cancellation FoundationNetworking reports next is not an error.
    func didReceiveChallenge() { state.withLock { $0.stoppedAtChallenge = true } }

    func didReceive(_ response: HTTPURLResponse) {
        var headers = HTTPHeaders()
        let fields = response.allHeaderFields.compactMap { key, value in (key as? String).map { ($0, "\(value)") } }
        for (name, value) in fields.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) { headers.add(name: name, value: value) }
        let head = HTTPResponseHead(statusCode: response.statusCode, headers: headers, url: response.url ?? request.url)
        let failure: URLError? = state.withLock { state in
            state.head = head
            state.firstByte = .now
            guard case .pendingResume(let file, let existingLength) = state.sink else { return nil }
            if head.isInterimHop {
                state.sink = .memory(Data())
                return nil
            }
            do {
                let handle = try Self.open(file, truncating: false, for: request.url)
                let keep = head.statusCode == 206 ? existingLength : 0
                try handle.truncate(atOffset: UInt64(keep))
                try handle.seek(toOffset: UInt64(keep))
                state.resumedLength = keep
                state.sink = .file(handle, file)
                return nil
            } catch {
                state.sink = .memory(Data())
                return error as? URLError ?? URLError(.cannotWriteToFile, failingURL: request.url, reason: "\(file.path): \(error)")
            }
        }
        if let failure { state.withLock { $0.failure = failure } }
        onEvent?(.responseHead(head))
    }

    /// Stores a piece of the body; `false` when it could not be written (the task is then cancelled).
    func didReceive(_ data: Data, expectedLength: Int64) -> Bool {
        let (stored, received) = state.withLock { state -> (Bool, Int64) in
            state.received += Int64(data.count)
            switch state.sink {
            case .memory(var body):
                state.sink = .memory(Data())
                body.append(data)
                state.sink = .memory(body)
            case .file(let handle, let file):
                do {
                    try handle.write(contentsOf: data)
                } catch {
                    state.failure = URLError(.cannotWriteToFile, failingURL: request.url, reason: "\(file.path): \(error)")
                    return (false, state.received)
                }
            case .stream, .pendingResume:
                break
            }
            return (true, state.received)
        }
        guard stored else { return false }
        if case .stream = request.responseBody { onEvent?(.bodyChunk(data)) }
        onEvent?(.downloadProgress(TransferProgress(completed: received, total: expectedLength >= 0 ? expectedLength : nil)))
        return true
    }

    func didSend(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        state.withLock { $0.sent = totalBytesSent }
        onEvent?(.uploadProgress(TransferProgress(
            completed: totalBytesSent, total: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil)))
    }

    /// Ends the transfer: the response, or the error the caller sees.
    func complete(error: (any Error)?) {
        let ended = ContinuousClock.now
        let (continuation, outcome) = state.withLock { state -> (CheckedContinuation<HTTPResponse, any Error>?, Result<HTTPResponse, URLError>) in
            let continuation = state.continuation
            state.continuation = nil
            var body: HTTPResponseBody
            switch state.sink {
            case .memory(let data): body = .data(data)
            case .file(let handle, let file):
                try? handle.close()
                body = .file(file, byteCount: state.resumedLength + state.received)
            case .stream, .pendingResume: body = .streamed(byteCount: state.received)
            }
            if let failure = state.failure { return (continuation, .failure(failure)) }
            if let error, !(state.stoppedAtChallenge && state.head != nil && (error as? URLError)?.code == .cancelled) {
                if state.timedOut {
                    let limit = request.totalTimeout ?? 0
                    return (continuation, .failure(URLError(.timedOut, failingURL: request.url, reason: "the request took longer than its totalTimeout of \(limit) s")))
                }
                return (continuation, .failure(Self.urlError(error, url: request.url)))
            }
            guard let head = state.head else {
                return (continuation, .failure(URLError(.badServerResponse, failingURL: request.url, reason: "URLSession completed without a response")))
            }
            if case .pendingResume = state.sink { body = .data(Data()) }
            let metrics = TransferMetrics(
                timeToFirstByte: state.firstByte.map { Self.seconds($0 - started) } ?? 0, total: Self.seconds(ended - started),
                bytesSent: state.sent, bytesReceived: state.received, httpVersion: head.version,
                remoteAddress: request.url.host ?? "", remotePort: request.url.port ?? (request.url.scheme == "https" ? 443 : 80))
            return (continuation, .success(HTTPResponse(head: head, body: body, metrics: metrics)))
        }
        switch outcome {
        case .success(let response):
            onEvent?(.completed(response))
            continuation?.resume(returning: response)
        case .failure(let error):
            continuation?.resume(throwing: error)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func urlError(_ error: any Error, url: URL) -> URLError {
        if let error = error as? URLError { return error }
        return URLError(.unknown, failingURL: url, reason: "\(error)")
    }
}
