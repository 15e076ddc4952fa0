import Foundation

/// An `HTTPTransport` that replays a cassette and, depending on its ``RecordMode``, records real traffic
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
    /// The recording's clock while the cassette only replays (``RecordMode/replay``, or ``RecordMode/once`` with the
    /// cassette present) and ``CassetteConfiguration/replayTime`` is ``ReplayTime/recorded``: a session over this
    /// transport judges time as the live run did (`RecordedTime`). `nil` while recording. A wrapper need not forward
    /// it: each replayed answer announces this clock to the session sending the request (`RecordedTime/announce(_:)`).
    public var recordedTime: (any WallClock)? { session.recordingClock }

    /// Opens a cassette.
    ///
    /// - Parameters:
    ///   - cassette: the cassette file (`.json`); sidecar bodies go in `<name>.bodies/` beside it.
    ///   - mode: the record mode, unless `TAPEDECK_RECORD_MODE` in `environment` says otherwise.
    ///   - upstream: the transport that records (required by every mode but `.replay`).
    ///   - configuration: matching, redaction, timing, faults and host rules.
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
        session = try CassetteSession(
            url: cassette, mode: effective, upstream: upstream, configuration: configuration,
            allowedHosts: HostRules.allowedHosts(fromEnvironment: environment) ?? configuration.allowedHosts)
    }

    /// Replays `request`, records it, or passes it through, as the mode says; see `HTTPTransport.send(_:onEvent:)`.
    ///
    /// A replay is answered in the caller's own task, with no stream, task or thread hop: the request is looked up,
    /// a server-trust policy is checked against the recorded chain, injected faults and recorded timing are applied,
    /// and the events a live transport would deliver go to `onEvent`. A file or stream body is read first (body
    /// rules may need it). A miss fails with ``CassetteError/unmatchedRequest(_:)``, records in the modes that do, or
    /// goes live in ``RecordMode/spy``. Before all that, ``CassetteConfiguration/ignoreHosts`` and
    /// ``CassetteConfiguration/ignoreLoopback`` send a request live, and ``CassetteConfiguration/allowedHosts``
    /// refuses one to any other host.
    public func send(_ request: HTTPRequest, onEvent: HTTPEventHandler?) async throws -> HTTPResponse {
        let session = self.session
        let pace = ReplayPace(session.configuration.timing)
        switch session.hostRules.decision(for: request.url) {
        case .cassette: break
        case .live: return try await live(request, onEvent: onEvent, reason: "its host is ignored")
        case .refused(let host):
            throw CassetteError.hostNotAllowed(host: host, url: request.url.absoluteString,
                                               allowed: Array(session.hostRules.allowedHosts ?? []))
        }
        if session.mode == .passthrough, let upstream = session.upstream {
            return try await upstream.send(session.configuration.secrets.fill(request).request, onEvent: onEvent)
        }
        guard session.replays else { return try await recorder().send(request, onEvent: onEvent) }
        let body = try await Self.bytes(of: request.body, needed: session.matchingReadsBody)
        switch session.lookup(Interaction.Request(request, body: body)) {
        case .success(let playback):
            let configuration = session.configuration
            if let expiry = configuration.expiresAfter, expiry.isExpired(playback.interaction) {
                switch expiry.strategy {
                case .fail:
                    throw CassetteError.expired(file: session.url.path, request: playback.interaction.request.summary,
                                                recordedAt: playback.interaction.recordedAt, maximumAge: expiry.maximumAge)
                case .reRecord where session.records:
                    var recorder = try recorder()
                    recorder.replacing = playback.index
                    return try await recorder.send(request, onEvent: onEvent)
                case .warn, .reRecord:
                    session.noteExpired(playback.index, playback.interaction)
                }
            }
            let fault = session.fault(for: playback)
            try await TrustCheck(request: request, interaction: playback.interaction, evaluator: configuration.trustEvaluator)?.run()
            try await Self.wait(before: playback.interaction, fault: fault, pace: pace, request: request)
            if let clock = session.recordingClock {
                clock.replaying(playback.interaction)
                RecordedTime.announce(clock)
            }
            var interaction = try playback.interaction.fillingTemplates(for: request, index: playback.index, file: session.url.path)
            if configuration.matching.matchesJSONRPC { interaction = interaction.answeringJSONRPC(body) }
            if configuration.replayTime == .now, case .response(let recorded) = interaction.outcome {
                interaction.outcome = .response(RecordedDateShift.toNow(recorded, recordedAt: interaction.recordedAt))
            }
            switch fault {
            case .fault(let transportFault): interaction.outcome = Interaction.Outcome(transportFault)
            case .answer(let outcome): interaction.outcome = outcome
            case .delay, nil: break
            }
            if let hook = configuration.beforeReplay, case .response(let recorded) = interaction.outcome {
                interaction.outcome = .response(try hook(request, recorded))
            }
            if fault == nil, let pushed = try await sessionPush(interaction, playback: playback, request: request, body: body,
                                                                pace: pace, onEvent: onEvent) {
                return pushed
            }
            let response = try await ReplayEmitter(interaction: interaction, request: request, cassette: session.url, pace: pace,
                                                   decodesContent: configuration.decodesContent)
                .response(emitting: onEvent)
            onEvent?(.completed(response))
            return response
        case .failure(let error):
            guard case .unmatchedRequest = error else { throw error }
            if session.mode == .spy {
                let response = try await live(request, onEvent: onEvent, reason: "spy mode, not in the cassette")
                session.noteSpyDrift(of: request, sentBody: body, response: response)
                return response
            }
            guard session.records else { throw error }
            return try await recorder().send(request, onEvent: onEvent)
        }
    }

    /// Plays `interaction`'s part in an MCP session's pushes (``SessionPushes``): a session's `GET` stream, read as a
    /// stream, stays open and carries what each call pushes (the response, once it ends); a call's pushes go to its
    /// session's stream before its answer, which (replayed at once) follows them after their recorded gap; a `DELETE`
    /// ends its session's stream. `nil` when the answer is the recorded one as usual.
    private func sessionPush(_ interaction: Interaction, playback: CassettePlayer.Playback, request: HTTPRequest, body: Data,
                             pace: ReplayPace?, onEvent: HTTPEventHandler?) async throws -> HTTPResponse? {
        guard let pushes = session.pushes, case .response(let recorded) = interaction.outcome else { return nil }
        let name = SessionPushStreams<ReplayedPushStream>.session(of: request.headers)
        if request.method == .get, case .stream = request.responseBody, pushes.isPushStream(playback.index) {
            let response = try await ReplayedPushStream.play(recorded, start: pushes.streamStart(playback.index), session: name,
                                                             streams: session.pushStreams, request: request, emit: onEvent)
            onEvent?(.completed(response))
            return response
        }
        if request.method == .delete { session.pushStreams.close(name) }
        guard let pushed = pushes.pushes(for: playback.index, answering: body) else { return nil }
        session.pushStreams.push(pushed.events, to: name, scale: pace?.scale)
        // Replayed at once, the answer still comes the recorded time after the pushes (at most a quarter second),
        // so that a reader of both meets them in their live order; a paced answer waits its recorded time anyway.
        if pace == nil {
            try await Task.sleep(for: .microseconds(Int64(pushed.answerGap(atMost: SessionPushStreams<ReplayedPushStream>.answerGapLimit) * 1_000_000)))
        }
        return nil
    }

    /// Sends `request` upstream without matching or recording it, and notes it in the summary.
    private func live(_ request: HTTPRequest, onEvent: HTTPEventHandler?, reason: String) async throws -> HTTPResponse {
        guard let upstream = session.upstream else {
            throw CassetteError.noUpstreamForLiveRequest(file: session.url.path, url: request.url.absoluteString, reason: reason)
        }
        session.noteLive(request)
        return try await upstream.send(session.configuration.secrets.fill(request).request, onEvent: onEvent)
    }

    /// Closes the cassette: folds recordings into the file, releases the lock, and reports what was never played.
    ///
    /// - Parameter requireAllPlayed: throw ``CassetteError/unplayedInteractions(file:requests:)`` when some
    ///   recorded interactions were never replayed.
    @discardableResult
    public func finish(requireAllPlayed: Bool = false) throws(CassetteError) -> CassetteSummary {
        try session.finish(requireAllPlayed: requireAllPlayed)
    }

    /// A recorder for this cassette, or why nothing can be recorded now (no upstream, or the cassette is finished).
    private func recorder() throws(CassetteError) -> Recorder {
        guard let upstream = session.upstream else { throw CassetteError.noUpstream(file: session.url.path, mode: session.mode) }
        try session.checkOpen()
        return Recorder(session: session, upstream: upstream)
    }

    /// Waits out an injected delay and the recorded latency.
    private static func wait(before interaction: Interaction, fault: ReplayFault.Action?, pace: ReplayPace?,
                             request: HTTPRequest) async throws {
        if case .delay(let duration) = fault { try await Task.sleep(for: duration) }
        try await pace?.waitForHead(of: interaction, request: request)
    }

    /// The bytes a request is matched on: an in-memory body as it is; a file or stream body read when body rules
    /// need it (a stream is drained either way, as a server would read it), else empty.
    private static func bytes(of body: HTTPRequestBody, needed: Bool) async throws -> Data {
        switch body {
        case .none:
            return Data()
        case .data(let data):
            return data
        case .file(let url):
            return needed ? try Data(contentsOf: url) : Data()
        case .stream(let stream):
            var collected = Data()
            for try await chunk in stream.makeChunks() where needed { collected.append(chunk) }
            return collected
        }
    }
}
