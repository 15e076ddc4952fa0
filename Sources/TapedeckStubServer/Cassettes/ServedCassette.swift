import Foundation
import TapedeckCassette
import TapedeckCore
import TapedeckWebSocket

/// A cassette served over the stub server's sockets. Lookups go through the same ``CassettePlayer`` the in-process
/// `CassetteTransport` uses (same matching rules, the cassette's stored ones unless the configuration sets others, redaction of the live request, order of identical requests,
/// playback repeats and near-miss reports); this type only turns the incoming request into the URL it was
/// recorded with and the playback into socket behaviour (``RecordedAnswer``).
final class ServedCassette: Sendable {
    struct State {
        var player: CassettePlayer
        var faultFirings: [Int: Int] = [:]
        /// Firings of the configuration's `conversationFaults`, by position.
        var conversationFaultFirings: [Int: Int] = [:]
        var playedCount = 0
        var unmatched: [String] = []
        /// The last fault that kills a connection, by request: a transport retries such a request once on a fresh
        /// connection (libcurl does when the connection was reused), and the retry must fail the same way.
        var retryable: (request: String, action: StubAction)?
        /// Near misses and cuts of the WebSocket conversations served, the first 100.
        var webSocketReports: [String] = []
    }

    /// Unmatched requests kept for the summary.
    static let unmatchedLimit = 100

    let url: URL
    let configuration: CassetteConfiguration
    /// Each distinct recorded origin (`scheme://authority`), by lowercased authority, in recorded order.
    let origins: [(authority: String, origin: String)]
    /// The origin requests whose `Host` names no recorded origin are matched as: the one given, else the first
    /// recorded one.
    let defaultOrigin: String
    /// How WebSocket conversations are played.
    let webSockets: WebSocketServing
    /// What serving has to say about the replay rules from the start: rules set in the configuration that override
    /// the cassette's, and recorded requests the rules cannot tell apart (`ReplayAmbiguity`).
    let notes: [String]
    /// What MCP servers pushed on their sessions' `GET` streams during each call (under a `jsonRPC` rule), and the
    /// streams open now.
    private let pushes: SessionPushes?
    private let pushStreams = SessionPushStreams<RelayedBody>()
    private let state: Locked<State>

    /// Loads the cassette at `url`.
    ///
    /// - Throws: ``CassetteError/cassetteNotFound(file:mode:)`` when there is no such file, or the error naming
    ///   what is wrong in it.
    init(url: URL, configuration: CassetteConfiguration, origin: URL?, webSockets: WebSocketServing = WebSocketServing()) throws(CassetteError) {
        guard CassetteFile.exists(url) else { throw CassetteError.cassetteNotFound(file: url.path, mode: .replay) }
        var cassette = try CassetteFile.load(url)
        // User information in a recorded URL (`https://ann:…@host/`) never crosses the wire (the client turns it
        // into an Authorization header), so a request served over HTTP is matched against the URL without it.
        for index in cassette.interactions.indices {
            cassette.interactions[index].request.url = Self.withoutUserInfo(cassette.interactions[index].request.url)
        }
        self.url = url
        let cassetteURL = url
        // The cassette's own rules, unless the configuration sets its own (which the notes then name).
        let effective = configuration.replaying(cassette.replayRules)
        self.configuration = effective
        notes = configuration.overrides(of: cassette.replayRules)
            + ReplayAmbiguity.notes(in: cassette, matching: effective.matching,
                                    bodyBytes: { body in try? CassetteFile.bodyData(body, cassette: cassetteURL) })
        self.webSockets = webSockets.pacing(following: effective.timing)
        var seen = Set<String>()
        var origins: [(authority: String, origin: String)] = []
        for interaction in cassette.interactions {
            guard let split = Self.origin(of: interaction.request.url), seen.insert(split.authority).inserted else { continue }
            origins.append(split)
        }
        self.origins = origins
        let given = origin.flatMap { Self.origin(of: $0.absoluteString)?.origin }
        defaultOrigin = given ?? origins.first?.origin ?? "http://127.0.0.1"
        let player = CassettePlayer(
            cassette: cassette, name: url.path, matching: effective.matching,
            allowPlaybackRepeats: effective.allowPlaybackRepeats, redaction: effective.redaction,
            bodyBytes: { body in try? CassetteFile.bodyData(body, cassette: cassetteURL) })
        state = Locked(State(player: player))
        pushes = SessionPushes.replaying(cassette, matching: effective.matching,
                                         bodyBytes: { body in try? CassetteFile.bodyData(body, cassette: cassetteURL) })
    }

    /// The sessions' open `GET` streams end with the cassette they replay.
    deinit {
        pushStreams.closeAll()
    }

    /// The answer to a request no stub matched: the recorded one, or a 404 holding the near-miss report (followed by
    /// the stubs' own report from `stubReport` when the server has stubs). The request is matched as sent to `url`
    /// when given (a forward proxy knows it), else to the URL ``liveRequest(_:url:)`` works out.
    func answer(_ request: RecordedRequest, url target: String? = nil, stubReport: () -> StubResponse?) -> FallbackAnswer {
        enum Outcome {
            case played(CassettePlayer.Playback, ReplayFault.Action?)
            case retried(StubAction)
            case missed(CassetteError)
        }
        let live = liveRequest(request, url: target)
        let outcome = state.withLock { state -> Outcome in
            switch state.player.play(live) {
            case .success(let playback):
                state.playedCount += 1
                return .played(playback, fault(for: playback, in: &state))
            case .failure(let error):
                if case .unmatchedRequest(let report) = error, !report.exhausted.isEmpty,
                   let retry = state.retryable, retry.request == live.summary {
                    state.retryable = nil
                    return .retried(retry.action)
                }
                if state.unmatched.count < Self.unmatchedLimit { state.unmatched.append(live.summary) }
                return .missed(error)
            }
        }
        switch outcome {
        case .played(let playback, let fault):
            var delay = recordedDelay(playback.interaction)
            var interaction: Interaction
            do {
                interaction = try playback.interaction.fillingTemplates(for: request, index: playback.index, file: url.path)
                if configuration.matching.matchesJSONRPC { interaction = interaction.answeringJSONRPC(request.body) }
            } catch {
                return .now(.respond(.text("\(error)\n", status: 500)), delay: .zero)
            }
            // A client's clock is its own: with replayTime .now its dates are moved to now (else served as recorded).
            if configuration.replayTime == .now, case .response(let recorded) = interaction.outcome {
                interaction.outcome = .response(RecordedDateShift.toNow(recorded, recordedAt: interaction.recordedAt))
            }
            // A fault that replaces the answer replaces the upgrade's 101 (a 503, a reset): the HTTP answer below.
            if let transcript = interaction.webSocket, let response = interaction.response, fault?.replacesTheRecording != true {
                return .now(webSocketAction(transcript, recordedHeaders: response.headers, request: request, live: live, playback: playback),
                            delay: .zero)
            }
            if fault == nil, let pushed = sessionPush(interaction, playback: playback, request: request, delay: delay) {
                return pushed
            }
            var action = RecordedAnswer.action(for: interaction, index: playback.index, cassette: url,
                                               scale: configuration.timing.scale ?? 0)
            switch fault {
            case .fault(let transportFault):
                action = .fault(transportFault)
            case .delay(let extra):
                delay += extra
            case .answer(let outcome):
                var answered = interaction
                answered.outcome = outcome
                action = RecordedAnswer.action(for: answered, index: playback.index, cassette: url, scale: configuration.timing.scale ?? 0)
            case nil:
                break
            }
            if request.method == .head, case .respond(let response) = action, let recorded = interaction.response {
                action = .respond(RecordedAnswer.answeringHEAD(response, announced: recorded.headers))
            }
            if case .fault(let socketFault) = action, socketFault == .reset || socketFault == .closeWithoutResponse {
                state.withLock { $0.retryable = (live.summary, action) }
            }
            return .now(action, delay: delay)
        case .retried(let action):
            return .now(action, delay: .zero)
        case .missed(let error):
            var text = error.description + "\n"
            if let stubs = stubReport(), case .data(let data) = stubs.body {
                text += "\n" + String(decoding: data, as: UTF8.self)
            }
            var response = StubResponse.text(text, status: 404)
            response.headers.add(name: "X-Tapedeck-Unmatched", value: "1")
            response.headers.add(name: "X-Tapedeck-Cassette", value: url.path)
            return .now(.respond(response), delay: .zero)
        }
    }

    /// The answer when `interaction` takes part in an MCP session's pushes (``SessionPushes``): a session's `GET`
    /// stream is answered with its open stream; a call's pushes go to its session's stream first, and its own answer
    /// (replayed at once) waits until they are out and then the recorded time between them and it (at most
    /// ``SessionPushStreams/answerGapLimit``), so that the client meets them in the order it met them live; a
    /// `DELETE` ends its session's stream. `nil` when the answer is the recorded one as usual.
    private func sessionPush(_ interaction: Interaction, playback: CassettePlayer.Playback, request: RecordedRequest,
                             delay: Duration) -> FallbackAnswer? {
        guard let pushes, case .response(let response) = interaction.outcome else { return nil }
        let session = SessionPushStreams<RelayedBody>.session(of: request.headers)
        if request.method == .get, pushes.isPushStream(playback.index) {
            let stream = RelayedBody()
            pushStreams.open(session, stream: stream, start: pushes.streamStart(playback.index))
            stream.whenAbandoned { [weak pushStreams, weak stream] in
                if let pushStreams, let stream { pushStreams.forget(stream, of: session) }
            }
            var answer = StubResponse(status: response.statusCode, headers: RecordedAnswer.forwardable(response.headers))
            answer.relay = (stream, nil)
            return .now(.respond(answer), delay: delay)
        }
        if request.method == .delete { pushStreams.close(session) }
        guard let pushed = pushes.pushes(for: playback.index, answering: request.body),
              let stream = pushStreams.push(pushed.events, to: session, scale: configuration.timing.scale) else { return nil }
        let action = RecordedAnswer.action(for: interaction, index: playback.index, cassette: url, scale: 0)
        let gap = Duration.microseconds(Int64(pushed.answerGap(atMost: SessionPushStreams<RelayedBody>.answerGapLimit) * 1_000_000))
        return .later { completion in
            let once = Locked(false)
            let answer: @Sendable () -> Void = {
                let answered = once.withLock { done in
                    defer { done = true }
                    return done
                }
                if !answered { completion(action) }
            }
            // Once the pushes are out and the recorded gap after them has passed; a stream whose client stopped
            // reading holds the answer a second at most.
            stream.whenSent {
                Task {
                    try? await Task.sleep(for: gap)
                    answer()
                }
            }
            Task {
                try? await Task.sleep(for: .seconds(1) + gap)
                answer()
            }
        }
    }

    /// Plays a recorded conversation on the upgraded connection, under the configuration's conversation fault that
    /// fires for it (`ConversationFault.firing`) if any; a request that does not ask for the upgrade gets a
    /// `426 Upgrade Required`.
    private func webSocketAction(_ transcript: WebSocketTranscript, recordedHeaders: HTTPHeaders, request: RecordedRequest,
                                 live: Interaction.Request, playback: CassettePlayer.Playback) -> StubAction {
        guard Self.asksForWebSocket(request.headers) else {
            var response = StubResponse.text("\(live.summary) was recorded as a WebSocket connection: connect with a WebSocket client\n", status: 426)
            response.headers.add(name: "Upgrade", value: "websocket")
            return .respond(response)
        }
        let (salt, fault) = state.withLock { state in
            (state.player.cassette.redactionSalt,
             ConversationFault.firing(configuration.conversationFaults, for: playback, firings: &state.conversationFaultFirings,
                                      player: &state.player))
        }
        let matcher = WebSocketFrameMatcher.replaying(mode: webSockets.matching, redaction: configuration.redaction, salt: salt, upgrade: live)
        let summary = live.summary
        return ServedWebSocket.action(
            frames: transcript.frames, fault: fault, recordedHeaders: recordedHeaders, matcher: matcher, serving: webSockets,
            report: { [state] line in
                state.withLock { state in
                    if state.webSocketReports.count < Self.unmatchedLimit { state.webSocketReports.append("\(summary): \(line)") }
                }
            })
    }

    /// What was played and what was not.
    var summary: CassetteServingSummary {
        state.withLock { state in
            let interactions = state.player.cassette.interactions
            return CassetteServingSummary(
                file: url.path, interactionCount: interactions.count, playedCount: state.playedCount,
                unplayed: state.player.unplayedIndices.map { "#\($0) " + interactions[$0].request.summary },
                unmatched: state.unmatched, webSocketReports: state.webSocketReports, notes: notes)
        }
    }

    /// The request as the in-process replayer would have seen it: `url` when given, else the recorded origin it was
    /// meant for (the one its `Host` names, else the default) with the path and query as sent; and the headers minus
    /// those the client's transport adds for the connection.
    func liveRequest(_ request: RecordedRequest, url given: String? = nil) -> Interaction.Request {
        var origin = defaultOrigin
        if let host = request.headers["Host"].map(Self.normalizedAuthority),
           let named = origins.first(where: { $0.authority == host }) {
            origin = named.origin
        }
        origin = Self.origin(origin, forWebSocket: Self.asksForWebSocket(request.headers))
        let url = given ?? origin + request.path + (request.query.map { "?" + $0 } ?? "")
        let headers = HTTPHeaders(request.headers.fields.filter { !Self.connectionHeaders.contains($0.name.lowercased()) })
        return Interaction.Request(method: request.method.rawValue, url: url, headers: headers, body: CassetteBody(request.body))
    }

    /// Whether a request asks to upgrade to a WebSocket (`Upgrade: websocket`).
    static func asksForWebSocket(_ headers: HTTPHeaders) -> Bool {
        headers.values(for: "Upgrade").flatMap { $0.split(separator: ",") }
            .contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" }
    }

    /// A recorded origin in the scheme the request is matched with: `ws`/`wss` for an upgrade to a WebSocket,
    /// `http`/`https` otherwise (one authority may have been recorded under both).
    static func origin(_ origin: String, forWebSocket: Bool) -> String {
        let pairs = forWebSocket ? [("http://", "ws://"), ("https://", "wss://")] : [("ws://", "http://"), ("wss://", "https://")]
        for (from, to) in pairs where origin.hasPrefix(from) { return to + origin.dropFirst(from.count) }
        return origin
    }

    /// Request headers a client's transport adds for the connection, not part of what the code under test sent.
    static let connectionHeaders: Set<String> = RecordedAnswer.hopByHopHeaders.union(["host", "expect"])

    /// The recorded latency to wait, as ``CassetteConfiguration/timing`` says.
    private func recordedDelay(_ interaction: Interaction) -> Duration {
        guard let scale = configuration.timing.scale else { return .zero }
        let seconds = interaction.secondsBeforeHead
        return seconds > 0 ? .microseconds(Int64(seconds * scale * 1_000_000)) : .zero
    }

    /// The injected fault for `playback`, counting its firing (as the in-process replayer does: a failure puts the
    /// interaction back, so a retry gets it).
    private func fault(for playback: CassettePlayer.Playback, in state: inout State) -> ReplayFault.Action? {
        ReplayFault.firing(configuration.faults, for: playback, firings: &state.faultFirings, player: &state.player)
    }

    /// `url` without the user information of its authority (`user:password@`).
    static func withoutUserInfo(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
    }

    /// `scheme://authority` of an absolute URL string, with the lowercased authority (default port dropped).
    static func origin(of url: String) -> (authority: String, origin: String)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let rest = url[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { return nil }
        var normalized = normalizedAuthority(String(authority))
        for (defaultScheme, port) in [("http", ":80"), ("https", ":443")] where scheme == defaultScheme && normalized.hasSuffix(port) {
            normalized.removeLast(port.count)
        }
        return (normalized, "\(scheme)://\(authority)")
    }

    /// An authority (`Host` header value) lowercased and trimmed.
    static func normalizedAuthority(_ authority: String) -> String {
        authority.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// What a served cassette played and what it did not, from ``StubServer/cassetteSummary()``.
public struct CassetteServingSummary: Sendable, Hashable {
    /// The cassette file.
    public var file: String
    /// Interactions in the cassette.
    public var interactionCount: Int
    /// Requests answered from the cassette (repeats included).
    public var playedCount: Int
    /// `#index METHOD URL` of every interaction never played.
    public var unplayed: [String]
    /// `METHOD URL` of the requests (as matched, after redaction) that found no interaction, the first 100.
    public var unmatched: [String]
    /// `METHOD URL: what happened` for each WebSocket client whose message matched nothing (the near miss: what it
    /// sent, what the recording has there) and each conversation cut off, the first 100.
    public var webSocketReports: [String] = []
    /// Rules set in the configuration that override the cassette's own, and recorded requests its rules cannot tell
    /// apart although their bodies differ (`ReplayAmbiguity`): known as soon as serving starts.
    public var notes: [String] = []
}
