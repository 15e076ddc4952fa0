import Foundation

/// Sends a request upstream, passes its events on as they arrive, and captures request and response bodies on
/// the way (teeing streams, reading files chunk by chunk) so the interaction can be recorded. The caller sees
/// `completed` (or the error) only after the interaction is on disk.
struct Recorder {
    let session: CassetteSession
    let upstream: any HTTPTransport

    func run(_ request: HTTPRequest, continuation: HTTPEventStream.Continuation) async {
        let threshold = session.configuration.sidecarThreshold
        let requestCapture = BodyCapture(cassette: session.url, threshold: threshold)
        let responseCapture = BodyCapture(cassette: session.url, threshold: threshold)
        var outgoing = request
        switch request.body {
        case .none: break
        case .data(let data): requestCapture.append(data)
        case .file(let file): try? requestCapture.appendFile(file)
        case .stream(let stream):
            outgoing.body = .stream(HTTPBodyStream(length: stream.length) {
                requestCapture.reset()
                return stream.makeChunks().map { chunk in
                    requestCapture.append(chunk)
                    return chunk
                }
            })
        }
        let started = ContinuousClock.now
        var completed: HTTPResponse?
        do {
            for try await event in upstream.execute(outgoing) {
                switch event {
                case .bodyChunk(let chunk):
                    responseCapture.append(chunk)
                    continuation.yield(event)
                case .completed(let response):
                    completed = response
                default:
                    continuation.yield(event)
                }
            }
        } catch let error as URLError where error.code != .cancelled && !Task.isCancelled {
            let elapsed = started.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            do {
                let body = try requestCapture.finish()
                try session.commit(Interaction(
                    request: recordedRequest(request, body: body), outcome: .failure(Interaction.Failure(error)),
                    metrics: TransferMetrics(total: Self.rounded(seconds)), recordedAt: Timestamp.truncated(Date())))
                continuation.finish(throwing: error)
            } catch {
                continuation.finish(throwing: error)
            }
            return
        } catch {
            continuation.finish(throwing: error)
            return
        }
        guard let response = completed else {
            continuation.finish(throwing: URLError(.cancelled, failingURL: request.url, reason: "the transfer was cancelled"))
            return
        }
        do {
            switch response.body {
            case .data(let data): responseCapture.append(data)
            case .file(let file, _):
                if case .resumingFile(_, let existing) = request.responseBody, response.statusCode == 206 {
                    try responseCapture.appendFile(file, offset: existing)
                } else {
                    try responseCapture.appendFile(file)
                }
            case .streamed: break
            }
            let head = response.head
            let recordedResponse = Interaction.Response(
                statusCode: head.statusCode, reasonPhrase: head.reasonPhrase, httpVersion: head.version,
                url: head.url == request.url ? nil : head.url.absoluteString, headers: head.headers,
                body: Self.decodedIfCompressed(try responseCapture.finish(), headers: head.headers))
            var metrics = response.metrics
            for keyPath in [\TransferMetrics.nameLookup, \.connect, \.tlsHandshake, \.timeToFirstByte, \.total] {
                metrics[keyPath: keyPath] = Self.rounded(metrics[keyPath: keyPath])
            }
            try session.commit(Interaction(
                request: recordedRequest(request, body: try requestCapture.finish()), outcome: .response(recordedResponse),
                metrics: metrics, peerCertificates: response.peerCertificates, recordedAt: Timestamp.truncated(Date())))
            continuation.yield(.completed(response))
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
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
