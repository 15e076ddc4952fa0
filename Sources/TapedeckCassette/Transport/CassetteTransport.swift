import Foundation

/// An ``HTTPTransport`` that replays a cassette and, depending on its ``RecordMode``, records real traffic
/// through an upstream transport (usually `CurlTransport`).
///
/// Replay never touches the network; an unmatched request fails with ``CassetteError/unmatchedRequest(_:)``,
/// whose message names the cassette, the request, the nearest recorded requests and how to record it. Recording
/// redacts secrets, then puts each interaction on disk before its `completed` event is delivered; an inter-process
/// lock keeps two recorders off one cassette. `TAPEDECK_RECORD_MODE` overrides the mode.
///
/// ```swift
/// let transport = try CassetteTransport(
///     cassette: URL(fileURLWithPath: "Cassettes/login.json"),
///     mode: .once,
///     upstream: CurlTransport())
/// let response = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))
/// try transport.finish(requireAllPlayed: true)
/// ```
public struct CassetteTransport: HTTPTransport {
    let session: CassetteSession

    /// The cassette file.
    public var cassetteURL: URL { session.url }
    /// The mode in effect (after `TAPEDECK_RECORD_MODE`).
    public var mode: RecordMode { session.mode }
    /// The configuration.
    public var configuration: CassetteConfiguration { session.configuration }

    /// Opens a cassette.
    ///
    /// - Parameters:
    ///   - cassette: the cassette file (`.json`); sidecar bodies go in `<name>.bodies/` beside it.
    ///   - mode: the record mode, unless `TAPEDECK_RECORD_MODE` in `environment` says otherwise.
    ///   - upstream: the transport that records (required by every mode but `.replay`).
    ///   - environment: where `TAPEDECK_RECORD_MODE` is read (the process environment by default).
    /// - Throws: ``CassetteError`` when the cassette is missing in replay, unreadable, locked by another
    ///   recorder, or when recording is needed without an upstream.
    public init(
        cassette: URL,
        mode: RecordMode = .replay,
        upstream: (any HTTPTransport)? = nil,
        configuration: CassetteConfiguration = CassetteConfiguration(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CassetteError) {
        let effective = try RecordMode.effective(mode, environment: environment)
        session = try CassetteSession(url: cassette, mode: effective, upstream: upstream, configuration: configuration)
    }

    /// Starts `request`: replays it, records it, or passes it through, as the mode says.
    public func execute(_ request: HTTPRequest) -> HTTPEventStream {
        let session = self.session
        if session.mode == .passthrough, let upstream = session.upstream {
            return upstream.execute(request)
        }
        if !session.replays {
            return recordingEvents(request)
        }
        let (stream, continuation) = HTTPEventStream.makeStream()
        switch request.body {
        case .none, .data:
            replay(request, body: request.body, continuation: continuation)
        case .file, .stream:
            let task = Task {
                do {
                    let body = try await Self.collect(request.body, needed: session.configuration.matching.contains { !$0.isIndexed })
                    replay(request, body: body, continuation: continuation)
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return stream
    }

    /// Runs `request` to completion and returns the response. Replaying builds the response directly, and passing
    /// through and recording call the upstream's own `send`, so no event stream sits between the caller and the
    /// cassette or the upstream transport (file and stream bodies, and stream destinations, take the event path).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = self.session
        if let upstream = session.upstream {
            if session.mode == .passthrough { return try await upstream.send(request) }
            if !session.replays, request.responseBody != .stream { return try await recorder().send(request) }
        }
        if session.replays, request.responseBody != .stream {
            switch request.body {
            case .none: return try await replayResponse(request, body: Data())
            case .data(let data): return try await replayResponse(request, body: data)
            case .file, .stream: break
            }
        }
        return try await send(request, onEvent: { _ in })
    }

    /// Replays `request` for a caller that wants only the response: the same steps as the event path (trust check,
    /// injected fault, recorded timing), with no events. A miss records, in the modes that record.
    private func replayResponse(_ request: HTTPRequest, body: Data) async throws -> HTTPResponse {
        switch session.lookup(Interaction.Request(request, body: body)) {
        case .success(let playback):
            let configuration = session.configuration
            let fault = session.fault(for: playback.index, playback.interaction.request)
            try await TrustCheck(request: request, interaction: playback.interaction, evaluator: configuration.trustEvaluator)?.run()
            try await Self.wait(before: playback.interaction, fault: fault, timing: configuration.timing, request: request)
            return try ReplayEmitter(interaction: playback.interaction, request: request, cassette: session.url).response(emitting: { _ in })
        case .failure(let error):
            guard session.records, case .unmatchedRequest = error else { throw error }
            return try await recorder().send(request)
        }
    }

    /// Closes the cassette: folds recordings into the file, releases the lock, and reports what was never played.
    ///
    /// - Parameter requireAllPlayed: throw ``CassetteError/unplayedInteractions(file:requests:)`` when some
    ///   recorded interactions were never replayed.
    @discardableResult
    public func finish(requireAllPlayed: Bool = false) throws(CassetteError) -> CassetteSummary {
        try session.finish(requireAllPlayed: requireAllPlayed)
    }

    private func replay(_ request: HTTPRequest, body: HTTPRequestBody, continuation: HTTPEventStream.Continuation) {
        var bytes = Data()
        if case .data(let data) = body { bytes = data }
        let live = Interaction.Request(request, body: bytes)
        switch session.lookup(live) {
        case .success(let playback):
            let emitter = ReplayEmitter(interaction: playback.interaction, request: request, cassette: session.url)
            let fault = session.fault(for: playback.index, playback.interaction.request)
            let trust = TrustCheck(request: request, interaction: playback.interaction,
                                   evaluator: session.configuration.trustEvaluator)
            if fault == nil, trust == nil, session.configuration.timing == .instant, emitter.isInlineOnly {
                do {
                    try emitter.deliver(to: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
                return
            }
            let timing = session.configuration.timing
            let task = Task {
                do {
                    try await trust?.run()
                    try await Self.wait(before: playback.interaction, fault: fault, timing: timing, request: request)
                    try emitter.deliver(to: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        case .failure(let error):
            if session.records, case .unmatchedRequest = error {
                startRecording(request, continuation: continuation)
            } else {
                continuation.finish(throwing: error)
            }
        }
    }

    /// A recorder for this cassette, or why nothing can be recorded now (no upstream, or the cassette is finished).
    private func recorder() throws(CassetteError) -> Recorder {
        guard let upstream = session.upstream else { throw CassetteError.noUpstream(file: session.url.path, mode: session.mode) }
        try session.checkOpen()
        return Recorder(session: session, upstream: upstream)
    }

    /// The events of a recording, pulled in the caller's task (or the reason recording is impossible).
    private func recordingEvents(_ request: HTTPRequest) -> HTTPEventStream {
        do {
            return try recorder().events(request)
        } catch {
            return HTTPEventStream { $0.finish(throwing: error) }
        }
    }

    private func startRecording(_ request: HTTPRequest, continuation: HTTPEventStream.Continuation) {
        do {
            let recorder = try recorder()
            let task = Task { await recorder.run(request, continuation: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        } catch {
            continuation.finish(throwing: error)
        }
    }

    /// Waits out an injected delay and the recorded latency; throws an injected error.
    private static func wait(before interaction: Interaction, fault: ReplayFault.Action?, timing: ReplayTiming,
                             request: HTTPRequest) async throws {
        switch fault {
        case .fail(let code):
            throw URLError(code, failingURL: request.url, reason: "injected fault: \(code.rawValue) (replaying a cassette)")
        case .delay(let duration):
            try await Task.sleep(for: duration)
        case nil:
            break
        }
        if case .recorded(let scale) = timing, scale > 0 {
            let seconds = interaction.response == nil ? interaction.metrics.total : interaction.metrics.timeToFirstByte
            if seconds > 0 { try await Task.sleep(for: .microseconds(Int64(seconds * scale * 1_000_000))) }
        }
    }

    /// A file or stream body in memory when body rules need it; otherwise the stream is drained and dropped.
    private static func collect(_ body: HTTPRequestBody, needed: Bool) async throws -> HTTPRequestBody {
        switch body {
        case .file(let url):
            return needed ? .data(try Data(contentsOf: url)) : .none
        case .stream(let stream):
            var collected = Data()
            for try await chunk in stream.makeChunks() where needed { collected.append(chunk) }
            return .data(collected)
        default:
            return body
        }
    }
}
