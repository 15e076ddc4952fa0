import Foundation
import TapedeckCore

/// Records one request: prepares what is sent upstream (teeing a stream body so it can be captured), captures the
/// response body as events pass, and commits the interaction (or the transport error) before the caller sees
/// `completed`.
struct Recorder {
    let session: CassetteSession
    let upstream: any HTTPTransport
    /// The interaction a re-recording replaces (an expired one), or `nil` to add a new one.
    var replacing: Int? = nil

    /// The captures and clock of one recording.
    final class Capture: Sendable {
        let request: HTTPRequest
        let requestBody: BodyCapture
        let responseBody: BodyCapture
        let started = ContinuousClock.now
        /// Where its request stands in the order requests were sent (``CassetteSession/sendTicket()``).
        let ticket: UInt64
        /// The response body's chunks and their times, when ``CassetteConfiguration/chunkTiming`` keeps them.
        let chunkTimeline = Locked<ChunkTimeline?>(nil)
        /// Whether the body arrives as chunk events (a streamed body) rather than only as progress.
        let bodyArrivesInChunks: Bool
        /// Whether the upstream reported the pieces of a body it wrote to a file (``HTTPRequest/reportsFileBodyChunks``):
        /// then the capture has the body, and the file is not read back.
        let fileBodyReported = Locked(false)
        /// The response head and when it arrived (seconds into the recording), once it has: a streamed body cut
        /// short is recorded as far as it came.
        let head: Locked<(head: HTTPResponseHead, at: Double)?>
        /// A large request body (in memory above the sidecar threshold, or a file) being redacted, hashed and
        /// written to its sidecar file while the request is on the wire.
        let storingRequestBody: Task<CassetteBody, any Error>?

        /// The secrets filled into the request that went upstream (``CassetteConfiguration/secrets``): scrubbed from
        /// the interaction before it is written, which keeps the request's placeholders.
        let filledSecrets: [String]

        /// `redactor` is asked for a redaction only when a large body is stored right away; `stream` makes the
        /// redaction of a body too large to hold in memory, given the response's headers (`nil` for the request's
        /// body).
        init(request: HTTPRequest, ticket: UInt64, threshold: Int, cassette: URL, filledSecrets: [String],
             redactor: () -> @Sendable (Data) -> Data, stream: @escaping @Sendable (_ responseHeaders: HTTPHeaders?) -> BodyRedactionStream) {
            self.request = request
            self.ticket = ticket
            self.filledSecrets = filledSecrets
            if case .stream = request.responseBody { bodyArrivesInChunks = true } else { bodyArrivesInChunks = false }
            let head = Locked<(head: HTTPResponseHead, at: Double)?>(nil)
            self.head = head
            requestBody = BodyCapture(cassette: cassette, threshold: threshold) { stream(nil) }
            responseBody = BodyCapture(cassette: cassette, threshold: threshold) { stream(head.withLock { $0?.head.headers } ?? [:]) }
            let requestBody = self.requestBody
            switch request.body {
            case .data(let data) where data.count > threshold:
                let redacting = redactor()
                storingRequestBody = Task.detached { try requestBody.store(data, redacting: redacting) }
            case .file(let file):
                storingRequestBody = Task.detached {
                    try? requestBody.appendFile(file)  // a file that cannot be read fails the transfer itself
                    return try requestBody.finish()
                }
            default:
                storingRequestBody = nil
            }
        }

        /// Seconds since the recording started, to the microsecond.
        var elapsed: Double {
            let elapsed = started.duration(to: .now)
            return Recorder.rounded(elapsed.inSeconds)
        }
    }

    /// The request to send upstream (its placeholders filled from ``CassetteConfiguration/secrets``), with its body
    /// captured on the way; the capture keeps the request as given.
    func begin(_ request: HTTPRequest) -> (Capture, HTTPRequest) {
        let fill = session.configuration.secrets.fill(request)
        let capture = Capture(request: request, ticket: session.sendTicket(), threshold: session.configuration.sidecarThreshold,
                              cassette: session.url, filledSecrets: fill.secrets, redactor: { redactor(request, responseHeaders: nil) },
                              stream: { [self] in streamingRedaction(request, responseHeaders: $0) })
        var outgoing = fill.request
        outgoing.reportsFileBodyChunks = !capture.bodyArrivesInChunks
        switch request.body {
        case .none, .data, .file: break  // stored by the capture, or taken as it is when committed
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

    /// Records `request`: sends it upstream, passing the upstream's events on to `onEvent` (capturing streamed body
    /// chunks on the way), and commits the interaction, or the transport error, before `completed` is delivered and
    /// before this returns.
    ///
    /// A small interaction (bodies in memory and at most ``quickCommitLimit``, the cassette already journaling) is
    /// committed from the upstream's `completed` event: over `CurlTransport` that runs on the loop thread while the
    /// caller's task is being resumed, so the commit overlaps the wake-up instead of following it.
    func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        let (capture, outgoing) = begin(request)
        // A body captured for an exchange that is not committed (cancelled, or failed before its answer) leaves no
        // file behind; after a commit there is nothing left to discard. (A file upload's body is stored by a task of
        // its own, which may still be reading.)
        defer {
            capture.responseBody.reset()
            if capture.storingRequestBody == nil { capture.requestBody.reset() }
        }
        let recorder = self
        let committedEarly = Locked<Result<Bool, any Error>>(.success(false))
        let chunkTiming = session.configuration.chunkTiming
        let response: HTTPResponse
        do {
            response = try await upstream.send(outgoing, onEvent: { event in
                switch event {
                case .completed(let response):
                    let outcome = Result { try recorder.commitIfQuick(response, capture: capture) }
                    committedEarly.withLock { $0 = outcome }
                case .bodyChunk(let chunk) where !capture.bodyArrivesInChunks:
                    // A piece of a body the upstream writes to a file: captured, not passed on (the caller asked
                    // for a file); the timeline follows the progress events, as for any file download.
                    capture.fileBodyReported.value = true
                    capture.responseBody.append(chunk)
                case .bodyChunk(let chunk):
                    capture.responseBody.append(chunk)
                    capture.chunkTimeline.withLock { $0?.add(chunk.count) }
                    onEvent?(event)
                case .responseHead(let head):
                    let timeline = chunkTiming.applies(to: head.headers) ? ChunkTimeline() : nil
                    capture.chunkTimeline.withLock { $0 = timeline }
                    let at = capture.elapsed
                    capture.head.withLock { $0 = (head, at) }
                    onEvent?(event)
                case .downloadProgress(let progress):
                    if !capture.bodyArrivesInChunks { capture.chunkTimeline.withLock { $0?.reached(progress.completed) } }
                    onEvent?(event)
                default:
                    onEvent?(event)
                }
            })
        } catch let error as URLError where error.code != .cancelled && !Task.isCancelled {
            let requestBody = try await recordedBody(of: capture)
            if capture.bodyArrivesInChunks, let (head, headAt) = capture.head.withLock({ $0 }) {
                try commit(head: head, body: .streamed(byteCount: 0), metrics: TransferMetrics(timeToFirstByte: headAt, total: capture.elapsed),
                           peerCertificates: [], interruption: Interaction.Failure(error), capture: capture, requestBody: requestBody)
            } else {
                try commit(error, capture: capture, requestBody: requestBody)
            }
            throw error
        }
        if try !committedEarly.withLock({ $0 }).get() {
            try commit(response, capture: capture, requestBody: await recordedBody(of: capture))
        }
        onEvent?(.completed(response))
        return response
    }

    /// Bodies up to this size (and the sidecar threshold) make an interaction small enough to commit from the
    /// upstream's `completed` event.
    static let quickCommitLimit = 64 << 10

    /// The largest body of an interaction committed from the upstream's `completed` event.
    private var quickBodyLimit: Int { min(Self.quickCommitLimit, session.configuration.sidecarThreshold) }

    /// Commits an interaction whose commit is quick: both bodies in memory and small, and the cassette already
    /// journaling (the first commit writes the whole file). Returns whether it committed.
    func commitIfQuick(_ response: HTTPResponse, capture: Capture) throws -> Bool {
        // A re-recording rewrites the whole file: not on the loop thread.
        guard replacing == nil, let sent = capture.request.body.inMemory, sent.count <= quickBodyLimit,
              case .data(let received) = response.body, received.count <= quickBodyLimit, session.isJournaling else { return false }
        try commit(response, capture: capture, requestBody: CassetteBody(sent))
        return true
    }

    /// Commits a failed transfer as a recorded error.
    func commit(_ error: URLError, capture: Capture, requestBody: CassetteBody) throws {
        try store(Interaction(
            request: recordedRequest(capture.request, body: requestBody),
            outcome: .failure(Interaction.Failure(error)),
            metrics: TransferMetrics(total: capture.elapsed), recordedAt: Timestamp.truncated(Date())), capture: capture)
    }

    /// Commits a completed transfer with its captured bodies.
    func commit(_ response: HTTPResponse, capture: Capture, requestBody: CassetteBody) throws {
        try commit(head: response.head, body: response.body, metrics: response.metrics, peerCertificates: response.peerCertificates,
                   interruption: nil, capture: capture, requestBody: requestBody)
    }

    /// Commits a response: its head, the body (given in memory, in a file, or captured as it streamed), and the
    /// error that cut a streamed body short, if one did.
    private func commit(head: HTTPResponseHead, body responseBody: HTTPResponseBody, metrics: TransferMetrics, peerCertificates: [Data],
                        interruption: Interaction.Failure?, capture: Capture, requestBody: CassetteBody) throws {
        let request = capture.request
        var inMemory: Data?
        switch responseBody {
        case .data(let data): inMemory = data
        case .file where capture.fileBodyReported.value:
            break  // captured as it was written
        case .file(let file, _):
            if case .resumingFile(_, let existing) = request.responseBody, head.statusCode == 206 {
                try capture.responseBody.appendFile(file, offset: existing)
            } else {
                try capture.responseBody.appendFile(file)
            }
        case .streamed: break
        }
        let sent = recordedRequest(request, body: requestBody)
        let redactor = redactor(request, responseHeaders: head.headers)
        // Where redacting a sidecar body in memory left its bytes alone, for its chunks to be re-cut around.
        let unchangedEnds = Locked<(prefix: Int, suffix: Int)?>(nil)
        let redact = { (data: Data) -> Data in
            let redacted = redactor(data)
            if redacted.count != data.count { unchangedEnds.value = TimedChunk.unchangedEnds(data, redacted) }
            return redacted
        }
        let body = try inMemory.map { try capture.responseBody.store($0, redacting: redact) } ?? capture.responseBody.finish()
        let recordedBody = Self.decodedIfCompressed(body, headers: head.headers)
        let chunks = capture.chunkTimeline.withLock { timeline -> [TimedChunk]? in
            guard var timeline = timeline.take() else { return nil }
            if interruption == nil { timeline.reached(responseBody.byteCount) }
            if let ends = unchangedEnds.value, recordedBody == body {
                return TimedChunk.recut(timeline.chunks, to: Int(recordedBody.byteCount), unchangedPrefix: ends.prefix, unchangedSuffix: ends.suffix)
            }
            return TimedChunk.fitted(timeline.chunks, to: Int(recordedBody.byteCount))
        }
        let recordedResponse = Interaction.Response(
            statusCode: head.statusCode, reasonPhrase: head.reasonPhrase, httpVersion: head.version,
            url: head.url == request.url ? nil : head.url.absoluteString, headers: head.headers,
            body: recordedBody, chunks: chunks, interruption: interruption)
        var metrics = metrics
        metrics.nameLookup = Self.rounded(metrics.nameLookup)
        metrics.connect = Self.rounded(metrics.connect)
        metrics.tlsHandshake = Self.rounded(metrics.tlsHandshake)
        metrics.timeToFirstByte = Self.rounded(metrics.timeToFirstByte)
        metrics.total = Self.rounded(metrics.total)
        try store(Interaction(
            request: sent, outcome: .response(recordedResponse),
            metrics: metrics, peerCertificates: peerCertificates, recordedAt: Timestamp.truncated(Date())), capture: capture)
    }

    /// The request body to record: a large or file body as the capture stored it while the request was on the wire;
    /// a small one as it is (redacted later with the rest of the interaction); a stream body as it was captured.
    private func recordedBody(of capture: Capture) async throws -> CassetteBody {
        if let storing = capture.storingRequestBody { return try await storing.value }
        if let data = capture.request.body.inMemory { return CassetteBody(data) }
        return try capture.requestBody.finish()
    }

    /// Redacts a body bound for a sidecar file the way inline bodies are redacted (JSON members, form fields,
    /// regular expressions, copies of the request's secrets, of the cookies the response sets and of every secret
    /// the cassette learned so far), before it is written. `responseHeaders` is `nil` for the request's body.
    private func redactor(_ request: HTTPRequest, responseHeaders: HTTPHeaders?) -> @Sendable (Data) -> Data {
        let redaction = session.redaction
        let session = self.session
        let contentType = (responseHeaders ?? request.headers)["Content-Type"]
        let known = knownSecrets(request, responseHeaders: responseHeaders)
        return { data in
            // The body's own secrets are redacted here and, through the session, scrubbed from everything else.
            let own = redaction.secretValues(ofBody: data, contentType: contentType)
            session.notePendingSecrets(own)
            let (learned, exchange) = known()
            let secrets = IndexAndList(index: learned, list: Redaction.ordered(exchange + own))
            return redaction.scrubBytes(redaction.redactBodyBytes(data, contentType: contentType), secrets: secrets)
        }
    }

    /// The same redaction for a body too large to hold in memory, applied as it streams to disk. The session takes
    /// the index the stream ends with, so that the body's secrets (a token in every record) are indexed once.
    private func streamingRedaction(_ request: HTTPRequest, responseHeaders: HTTPHeaders?) -> BodyRedactionStream {
        let session = self.session
        let (learned, exchange) = knownSecrets(request, responseHeaders: responseHeaders)()
        let count = learned.secrets.count
        var secrets = learned
        secrets.add(exchange)
        return BodyRedactionStream(redaction: session.redaction, contentType: (responseHeaders ?? request.headers)["Content-Type"],
                                   secrets: secrets, noteSecrets: { session.notePendingSecrets($0) },
                                   whenFinished: { session.adoptSecrets($0, extending: count) })
    }

    /// The secrets a body of this exchange is scrubbed of, asked when the body is redacted: those the cassette
    /// learned so far (the session's index), and those of the request's headers and URL and of the cookies the
    /// response sets.
    private func knownSecrets(_ request: HTTPRequest, responseHeaders: HTTPHeaders?) -> @Sendable () -> (learned: SecretOccurrences, exchange: [String]) {
        let redaction = session.redaction
        let session = self.session
        let exchange = Interaction(request: recordedRequest(request, body: .empty),
                                   outcome: .response(Interaction.Response(statusCode: 0, headers: responseHeaders ?? [:])))
        return { (session.learnedSecrets, redaction.secretValues(of: exchange)) }
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

    /// Adds the interaction to the cassette, or puts it in place of the one it re-records.
    /// Then runs ``CassetteConfiguration/recordingCheck`` on it.
    private func store(_ interaction: Interaction, capture: Capture) throws(CassetteError) {
        if let replacing {
            try session.replace(replacing, with: interaction, scrubbing: capture.filledSecrets)
        } else {
            try session.commit(interaction, scrubbing: capture.filledSecrets, ticket: capture.ticket)
        }
        if let check = session.configuration.recordingCheck {
            // The check sees what the cassette holds: redacted and scrubbed, so no secret reaches its messages.
            var stored = interaction
            session.redaction.redact(&stored)
            session.redaction.scrub(&stored, secrets: capture.filledSecrets)
            let problems = check(stored, session.url)
            guard problems.isEmpty else {
                throw CassetteError.recordingRejected(file: session.url.path, request: stored.request.summary, problems: problems)
            }
        }
    }

    /// Seconds rounded to the microsecond, so cassettes do not carry clock noise.
    static func rounded(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }
}

extension HTTPRequestBody {
    /// The bytes of a body given in memory (empty for no body); `nil` for a file or a stream.
    var inMemory: Data? {
        switch self {
        case .none: return Data()
        case .data(let data): return data
        case .file, .stream: return nil
        }
    }
}
