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
        /// The request half, when it was prepared while the request was on the wire.
        let prepared = Mutex<PreparedRequest?>(nil)

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
        case .none, .data: break  // taken as it is when committed (see `recordedBody(of:)`)
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
    /// between the upstream transport and the caller. The request half of a small interaction is prepared while the
    /// request is on the wire, so the commit after `completed` has only the response half left.
    func events(_ request: HTTPRequest) -> HTTPEventStream {
        let (capture, outgoing) = begin(request)
        let source = SerialIterator(upstream.execute(outgoing))
        // A transport starts the transfer in `execute`: the request half is prepared while it is on the wire.
        prepare(capture)
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
    ///
    /// When the upstream lets work overlap the transfer (``OverlappingTransport``), the request half of a small
    /// interaction is prepared while the request is on the wire, and the interaction is committed on the upstream's
    /// thread while the caller's task is being resumed, instead of after it.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (capture, outgoing) = begin(request)
        let recorder = self
        let committedEarly = Mutex<Result<Bool, any Error>>(.success(false))
        let response: HTTPResponse
        do {
            if let overlapping = session.overlappingUpstream {
                response = try await overlapping.send(outgoing, whileInFlight: {
                    recorder.prepare(capture)
                }, onCompletion: { response in
                    let outcome = Result { try recorder.commitIfQuick(response, capture: capture) }
                    committedEarly.withLock { $0 = outcome }
                })
            } else {
                response = try await upstream.send(outgoing)
            }
        } catch let error as URLError where error.code != .cancelled && !Task.isCancelled {
            try commit(error, capture: capture)
            throw error
        }
        if try !committedEarly.withLock({ $0 }).get() {
            try commit(response, capture: capture)
        }
        return response
    }

    /// Bodies up to this size (and the sidecar threshold) make an interaction small enough to prepare and commit
    /// while the transfer is under way.
    static let quickCommitLimit = 64 << 10

    /// The largest body of an interaction prepared and committed while the transfer is under way.
    private var quickBodyLimit: Int { min(Self.quickCommitLimit, session.configuration.sidecarThreshold) }

    /// Prepares the request half of the recording into `capture.prepared`, when the request body is small and in
    /// memory (otherwise it stays `nil`, and the commit does the whole interaction).
    func prepare(_ capture: Capture) {
        let body: Data
        switch capture.request.body {
        case .none: body = Data()
        case .data(let data) where data.count <= quickBodyLimit: body = data
        default: return
        }
        let prepared = PreparedRequest(recordedRequest(capture.request, body: CassetteBody(body)), redaction: session.configuration.redaction)
        capture.prepared.withLock { $0 = prepared }
    }

    /// Commits an interaction whose commit is quick: the request prepared, the response body in memory and small,
    /// and the cassette already journaling (the first commit writes the whole file). Returns whether it committed.
    func commitIfQuick(_ response: HTTPResponse, capture: Capture) throws -> Bool {
        guard capture.prepared.withLock({ $0 }) != nil, case .data(let body) = response.body,
              body.count <= quickBodyLimit,
              session.isJournaling else { return false }
        try commit(response, capture: capture)
        return true
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
            request: recordedRequest(capture.request, body: try recordedBody(of: capture)),
            outcome: .failure(Interaction.Failure(error)),
            metrics: TransferMetrics(total: Self.rounded(seconds)), recordedAt: Timestamp.truncated(Date())))
    }

    /// Commits a completed transfer with its captured bodies.
    func commit(_ response: HTTPResponse, capture: Capture) throws {
        let request = capture.request
        var inlineBody: Data?
        switch response.body {
        case .data(let data) where data.count <= session.configuration.sidecarThreshold: inlineBody = data
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
        let prepared = capture.prepared.withLock { $0 }
        let sent = try prepared?.original ?? recordedRequest(request, body: recordedBody(of: capture))
        let body = try inlineBody.map { CassetteBody($0) } ?? capture.responseBody.finish(redacting: redactor(head.headers))
        let recordedResponse = Interaction.Response(
            statusCode: head.statusCode, reasonPhrase: head.reasonPhrase, httpVersion: head.version,
            url: head.url == request.url ? nil : head.url.absoluteString, headers: head.headers,
            body: Self.decodedIfCompressed(body, headers: head.headers))
        var metrics = response.metrics
        metrics.nameLookup = Self.rounded(metrics.nameLookup)
        metrics.connect = Self.rounded(metrics.connect)
        metrics.tlsHandshake = Self.rounded(metrics.tlsHandshake)
        metrics.timeToFirstByte = Self.rounded(metrics.timeToFirstByte)
        metrics.total = Self.rounded(metrics.total)
        try session.commit(Interaction(
            request: sent, outcome: .response(recordedResponse),
            metrics: metrics, peerCertificates: response.peerCertificates, recordedAt: Timestamp.truncated(Date())),
            prepared: prepared)
    }

    /// The request body to record: a body given as data is taken as it is (through a capture only when it goes to a
    /// sidecar file); file and stream bodies were captured as they were sent.
    private func recordedBody(of capture: Capture) throws -> CassetteBody {
        if case .data(let data) = capture.request.body {
            if data.count <= session.configuration.sidecarThreshold { return CassetteBody(data) }
            capture.requestBody.append(data)
        }
        return try capture.requestBody.finish(redacting: redactor(capture.request.headers))
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
