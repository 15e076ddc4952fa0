import Foundation
import Synchronization

/// Records one request: prepares what is sent upstream (teeing a stream body so it can be captured), captures the
/// response body as events pass, and commits the interaction (or the transport error) before the caller sees
/// `completed`. The steps are driven either in the caller's own task (``events(_:)``, pulling one upstream event per
/// event asked for) or by a task feeding a continuation (``run(_:continuation:)``).
struct Recorder {
    let session: CassetteSession
    let upstream: any HTTPTransport

    /// The captures and clock of one recording.
    final class Capture: Sendable {
        let request: HTTPRequest
        let requestBody: BodyCapture
        let responseBody: BodyCapture
        let started = ContinuousClock.now

        init(request: HTTPRequest, threshold: Int, cassette: URL) {
            self.request = request
            requestBody = BodyCapture(cassette: cassette, threshold: threshold)
            responseBody = BodyCapture(cassette: cassette, threshold: threshold)
        }
    }

    /// The request to send upstream, with its body captured on the way.
    func begin(_ request: HTTPRequest) -> (Capture, HTTPRequest) {
        let capture = Capture(request: request, threshold: session.configuration.sidecarThreshold, cassette: session.url)
        var outgoing = request
        switch request.body {
        case .none: break
        case .data(let data): capture.requestBody.append(data)
        case .file(let file): try? capture.requestBody.appendFile(file)
        case .stream(let stream):
            let requestBody = capture.requestBody
            outgoing.body = .stream(HTTPBodyStream(length: stream.length) {
                requestBody.reset()
                return stream.makeChunks().map { chunk in
                    requestBody.append(chunk)
                    return chunk
                }
            })
        }
        return (capture, outgoing)
    }

    /// The recording's events, pulled from upstream in the consumer's own task: no task and no second stream sit
    /// between the upstream transport and the caller.
    func events(_ request: HTTPRequest) -> HTTPEventStream {
        let (capture, outgoing) = begin(request)
        let source = SerialIterator(upstream.execute(outgoing))
        // Whether `completed` went by: the stream's end is then a normal end, not a cancellation.
        let completed = Mutex(false)
        let recorder = self
        return AsyncThrowingStream(unfolding: {
            do {
                guard let event = try await source.next() else {
                    if completed.withLock({ $0 }) { return nil }
                    throw URLError(.cancelled, failingURL: request.url, reason: "the transfer was cancelled")
                }
                switch event {
                case .bodyChunk(let chunk):
                    capture.responseBody.append(chunk)
                case .completed(let response):
                    completed.withLock { $0 = true }
                    try recorder.commit(response, capture: capture)
                default:
                    break
                }
                return event
            } catch let error as URLError where error.code != .cancelled && !Task.isCancelled {
                try recorder.commit(error, capture: capture)
                throw error
            }
        })
    }

    /// Records `request` through the upstream's own `send`, without an event stream: for callers that want only
    /// the response, when the body is not streamed (streamed chunks exist only as events).
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (capture, outgoing) = begin(request)
        let response: HTTPResponse
        do {
            response = try await upstream.send(outgoing)
        } catch let error as URLError where error.code != .cancelled && !Task.isCancelled {
            try commit(error, capture: capture)
            throw error
        }
        try commit(response, capture: capture)
        return response
    }

    /// Drives the recording from a task, yielding to `continuation` (used when a replay miss turns into a recording).
    func run(_ request: HTTPRequest, continuation: HTTPEventStream.Continuation) async {
        do {
            for try await event in events(request) { continuation.yield(event) }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }

    /// Commits a failed transfer as a recorded error.
    func commit(_ error: URLError, capture: Capture) throws {
        let elapsed = capture.started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        try session.commit(Interaction(
            request: recordedRequest(capture.request, body: try capture.requestBody.finish(redacting: redactor(capture.request.headers))),
            outcome: .failure(Interaction.Failure(error)),
            metrics: TransferMetrics(total: Self.rounded(seconds)), recordedAt: Timestamp.truncated(Date())))
    }

    /// Commits a completed transfer with its captured bodies.
    func commit(_ response: HTTPResponse, capture: Capture) throws {
        let request = capture.request
        switch response.body {
        case .data(let data): capture.responseBody.append(data)
        case .file(let file, _):
            if case .resumingFile(_, let existing) = request.responseBody, response.statusCode == 206 {
                try capture.responseBody.appendFile(file, offset: existing)
            } else {
                try capture.responseBody.appendFile(file)
            }
        case .streamed: break
        }
        let head = response.head
        let recordedResponse = Interaction.Response(
            statusCode: head.statusCode, reasonPhrase: head.reasonPhrase, httpVersion: head.version,
            url: head.url == request.url ? nil : head.url.absoluteString, headers: head.headers,
            body: Self.decodedIfCompressed(try capture.responseBody.finish(redacting: redactor(head.headers)), headers: head.headers))
        var metrics = response.metrics
        for keyPath in [\TransferMetrics.nameLookup, \.connect, \.tlsHandshake, \.timeToFirstByte, \.total] {
            metrics[keyPath: keyPath] = Self.rounded(metrics[keyPath: keyPath])
        }
        try session.commit(Interaction(
            request: recordedRequest(request, body: try capture.requestBody.finish(redacting: redactor(request.headers))),
            outcome: .response(recordedResponse),
            metrics: metrics, peerCertificates: response.peerCertificates, recordedAt: Timestamp.truncated(Date())))
    }

    /// Redacts a body bound for a sidecar file the way inline bodies are redacted (JSON members, form fields,
    /// regular expressions), before it is written.
    private func redactor(_ headers: HTTPHeaders) -> (Data) -> Data {
        let redaction = session.configuration.redaction
        let contentType = headers["Content-Type"]
        return { redaction.redactBodyBytes($0, contentType: contentType) }
    }

    private func recordedRequest(_ request: HTTPRequest, body: CassetteBody) -> Interaction.Request {
        Interaction.Request(method: request.method.rawValue, url: request.url.absoluteString, headers: request.headers, body: body)
    }

    /// A body the transport left gzip-compressed, stored decoded (re-encoded on replay); other bodies as they are.
    static func decodedIfCompressed(_ body: CassetteBody, headers: HTTPHeaders) -> CassetteBody {
        guard let data = body.inlineData, ContentCoding.isGzip(data, contentEncoding: headers["Content-Encoding"]),
              let decoded = ContentCoding.gunzip(data) else { return body }
        return CassetteBody(decoded, contentEncoding: "gzip")
    }

    /// Seconds rounded to the microsecond, so cassettes do not carry clock noise.
    static func rounded(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }
}
