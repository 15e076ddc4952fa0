import Foundation

/// How a ``CassetteTransport`` matches, redacts, times and stores.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.matching = [.method, .url, .json(ignoring: ["nonce"])]
/// configuration.timing = .recorded(scale: 0.5)
/// configuration.faults = [ReplayFault(interaction: 2, action: .fault(.noResponse))]
/// configuration.ignoreLoopback = true                 // the local stub server stays live
/// configuration.allowedHosts = ["api.example.com"]    // nothing else may be reached
/// ```
public struct CassetteConfiguration: Sendable {
    /// The rules a recorded request must satisfy to be replayed: those set here, else those the cassette stores
    /// (``Cassette/replayRules``), else method and URL with query order ignored. Rules set here are stored in the
    /// cassette when it records (all but a ``MatchRule/custom(_:_:)`` closure, which cannot be written down: with
    /// one among them, no match rules are stored and the summary says so).
    public var matching: [MatchRule] {
        get { chosen.matching ?? MatchRule.defaults }
        set { chosen.matching = newValue }
    }
    /// Whether a request whose interactions have all been played replays the last one again: as set here, else as
    /// the cassette stores, else `false`.
    public var allowPlaybackRepeats: Bool {
        get { chosen.allowPlaybackRepeats ?? false }
        set { chosen.allowPlaybackRepeats = newValue }
    }
    /// The replay rules set in code, as opposed to those taken from the cassette or the defaults: what a recording
    /// stores, and what overrides a cassette's stored rules when it replays.
    public private(set) var chosen = ReplayRules()
    /// What is removed before anything is written (on by default).
    public var redaction: Redaction
    /// How fast replays happen: as set here, else as the cassette stores, else ``ReplayTiming/instant``.
    public var timing: ReplayTiming {
        get { chosen.pacing ?? .instant }
        set { chosen.pacing = newValue }
    }
    /// Errors and delays injected into replays.
    public var faults: [ReplayFault]
    /// Bodies larger than this many bytes are kept in a sidecar file beside the cassette. Default 1 MiB.
    public var sidecarThreshold: Int
    /// Response headers whose change alone does not count as a change when re-recording (so re-recording
    /// unchanged traffic leaves the file byte for byte the same). Default `Date`.
    public var volatileHeaders: Set<String>
    /// Evaluates a replayed HTTPS request's `TLSSettings.serverTrustPolicy` against the certificate chain recorded
    /// with its interaction (`Tapedeck.RecordedChainTrust()`), so pinning holds offline. A request that carries a
    /// policy while this is `nil` fails with a message saying so, rather than passing unchecked.
    public var trustEvaluator: (any RecordedTrustEvaluating)?
    /// Hosts whose requests go live through the upstream, never matched and never recorded (vcrpy's
    /// `ignore_hosts`): a local database or a local stub server beside the remote API a cassette is for. An entry
    /// is a host name or `*.example.com` for its subdomains.
    public var ignoreHosts: Set<String>
    /// Whether requests to loopback (127.0.0.0/8, ::1, `localhost`) go live too, as ``ignoreHosts`` do.
    public var ignoreLoopback: Bool
    /// When set, the only hosts requests may go to, in every mode; any other fails with
    /// ``CassetteError/hostNotAllowed(host:url:allowed:)`` so a test cannot reach an unexpected service. Ignored
    /// hosts are allowed implicitly. `TAPEDECK_ALLOWED_HOSTS` (comma-separated) replaces it, for CI.
    public var allowedHosts: Set<String>?

    /// Sees each replayed request with its recorded response and returns the response to deliver (go-vcr's
    /// `BeforeResponseReplayHook`): echo a request id, or a time, from the live request into the answer. It runs
    /// before any event of the replay is delivered; what it throws is the request's error.
    ///
    /// ```swift
    /// configuration.beforeReplay = { request, response in
    ///     var response = response
    ///     response.headers["X-Request-Id"] = request.headers["X-Request-Id"]
    ///     return response
    /// }
    /// ```
    public var beforeReplay: (@Sendable (HTTPRequest, Interaction.Response) throws -> Interaction.Response)?

    /// Whether, in ``RecordMode/newEpisodes``, interactions this run never played are dropped when the cassette is
    /// finished (the file rewritten atomically, sidecars only they used removed), so re-recorded or abandoned
    /// traffic does not pile up. The summary lists them under ``CassetteSummary/pruned``. Default `false`.
    public var pruneUnplayed: Bool

    /// Whether a replayed body that crossed the wire compressed is delivered decoded (the default), as the live
    /// transport delivers it (`CurlTransport.Configuration.automaticDecompression`, URLSession), or compressed again
    /// (`false`, for a caller that relays the bytes as they were sent).
    public var decodesContent = true

    /// Failures injected into replayed WebSocket conversations (a drop, a close, a stall after the server's frame
    /// `N`), in process and on a served cassette. Default none.
    public var conversationFaults: [ConversationFault] = []

    /// How replayed answers are placed in time: on the recording's clock (``ReplayTime/recorded``, the default), or
    /// moved to now (``ReplayTime/now``); as set here, else as the cassette stores.
    public var replayTime: ReplayTime {
        get { chosen.replayTime ?? .recorded }
        set { chosen.replayTime = newValue }
    }

    /// When recorded interactions are too old to replay as they are: warn, fail, or re-record. `nil` (the default)
    /// replays interactions of any age.
    public var expiresAfter: CassetteExpiry?

    /// Which recorded responses keep their chunk boundaries and arrival times (``Interaction/Response/chunks``),
    /// so replay can deliver them as they came. Default ``ChunkTimingCapture/eventStreams``.
    public var chunkTiming: ChunkTimingCapture

    /// The values of redaction placeholders, and per-host credentials, put into every request that goes to the
    /// upstream (recorded, re-recorded, or sent live): a cassette recorded with `Authorization: Bearer [REDACTED]`
    /// authenticates when it is re-recorded. What is written keeps the placeholder, and copies of the secrets in an
    /// answer are scrubbed. Default: `TAPEDECK_SECRET_<NAME>` environment variables (see ``PlaceholderSecrets``).
    public var secrets: PlaceholderSecrets

    /// Checks each interaction as it is recorded (for example against the provider's OpenAPI document:
    /// `OpenAPIConformance.recordingCheck` in TapedeckConformance). It gets the interaction as stored and the
    /// cassette's file (for bodies kept in sidecars) and returns the problems found; when there are any, the
    /// interaction stays recorded and the request throws ``CassetteError/recordingRejected(file:request:problems:)``,
    /// so the test learns at once that the provider answered outside its contract. `nil` (the default) checks nothing.
    public var recordingCheck: (@Sendable (_ interaction: Interaction, _ cassette: URL) -> [String])? = nil

    /// The environment variable that replaces ``allowedHosts``: host names separated by commas.
    public static let allowedHostsVariable = "TAPEDECK_ALLOWED_HOSTS"

    /// Creates a configuration. What is left `nil` among the replay rules (`matching`, `allowPlaybackRepeats`,
    /// `timing`) is taken from the cassette when it stores it, else from the defaults.
    public init(
        matching: [MatchRule]? = nil,
        allowPlaybackRepeats: Bool? = nil,
        redaction: Redaction = .default,
        timing: ReplayTiming? = nil,
        faults: [ReplayFault] = [],
        sidecarThreshold: Int = 1 << 20,
        volatileHeaders: Set<String> = ["date"],
        trustEvaluator: (any RecordedTrustEvaluating)? = nil,
        ignoreHosts: Set<String> = [],
        ignoreLoopback: Bool = false,
        allowedHosts: Set<String>? = nil,
        beforeReplay: (@Sendable (HTTPRequest, Interaction.Response) throws -> Interaction.Response)? = nil,
        pruneUnplayed: Bool = false,
        expiresAfter: CassetteExpiry? = nil,
        chunkTiming: ChunkTimingCapture = .eventStreams,
        secrets: PlaceholderSecrets = PlaceholderSecrets()
    ) {
        self.secrets = secrets
        self.chunkTiming = chunkTiming
        self.chosen = ReplayRules(matching: matching, allowPlaybackRepeats: allowPlaybackRepeats, pacing: timing)
        self.redaction = redaction
        self.faults = faults
        self.sidecarThreshold = sidecarThreshold
        self.volatileHeaders = volatileHeaders
        self.trustEvaluator = trustEvaluator
        self.ignoreHosts = ignoreHosts
        self.ignoreLoopback = ignoreLoopback
        self.allowedHosts = allowedHosts
        self.beforeReplay = beforeReplay
        self.pruneUnplayed = pruneUnplayed
        self.expiresAfter = expiresAfter
    }
}

/// How fast recorded interactions are replayed.
///
/// A response recorded with its chunk timing (``Interaction/Response/chunks``, e.g. a server-sent event stream) is
/// delivered in its recorded chunks either way; with ``recorded(scale:)`` each chunk also waits for its recorded
/// time, and a gap longer than the request's `timeoutInterval` fails with `URLError.timedOut` as it would live.
public enum ReplayTiming: Sendable, Hashable {
    /// As fast as possible (the default).
    case instant
    /// With the recorded time to first byte, chunk times and total time, multiplied by `scale` (1 = as recorded).
    case recorded(scale: Double)

    /// The factor recorded times are multiplied by, or `nil` for ``instant`` (and a scale of 0 or less).
    package var scale: Double? {
        if case .recorded(let scale) = self, scale > 0 { return scale }
        return nil
    }
}

/// Which responses keep their chunk timing when recorded (see ``Interaction/Response/chunks``).
public enum ChunkTimingCapture: Sendable, Hashable {
    /// None: bodies are recorded as bytes only.
    case never
    /// `text/event-stream` responses (server-sent events), the ones whose pacing a client depends on.
    case eventStreams
    /// Every response (a chunked download whose progress pacing matters, a long poll, NDJSON).
    case always

    /// Whether a response with these headers keeps its chunk timing.
    func applies(to headers: HTTPHeaders) -> Bool {
        switch self {
        case .never: return false
        case .always: return true
        case .eventStreams:
            guard let type = headers["Content-Type"] else { return false }
            return type.lowercased().hasPrefix("text/event-stream")
        }
    }
}

/// A fault, a delay or another answer injected into the replay of chosen interactions, to test retry, timeout and
/// error-handling logic. The same faults apply in process (`CassetteTransport`) and when a stub server serves the
/// cassette over sockets, and the client sees the same `URLError` (or status) either way.
///
/// ```swift
/// ReplayFault(interaction: 0, action: .fault(.reset), times: 1)   // the first try fails once (-1005)
/// ReplayFault(action: .delay(.milliseconds(200))) { $0.url.contains("/slow") }
/// ReplayFault(interaction: 2, action: .fault(.status(503)), times: 1)
/// ```
///
/// ``InteractionFault`` names the failures a recording implies (a timeout, a reset in the middle of the body, a 503
/// with `Retry-After`, …) and builds the ``Action/answer(_:)`` for each from the recorded interaction.
public struct ReplayFault: Sendable {
    /// What happens.
    public enum Action: Sendable, Hashable {
        /// The exchange fails as `TransportFault` says, instead of replaying: in process, the request meets what
        /// `CurlTransport` reports when a server does it at the socket (a reset is `.networkConnectionLost`).
        case fault(TransportFault)
        /// The replay waits this long before the response head. Not a `TransportFault`: it replaces nothing, so the
        /// recording is replayed after it.
        case delay(Duration)
        /// The replay delivers this outcome instead of the recorded one: another response (a `503`, a body cut
        /// short, a response that ends in ``Interaction/Response/interruption``) or a transport error (any
        /// `URLError` code, also those a listening server cannot produce, such as `.cannotConnectToHost`).
        case answer(Interaction.Outcome)

        /// The request fails with this `URLError` code instead of replaying: an ``answer(_:)`` of that failure, as
        /// earlier versions spelled it (`.fail(.timedOut)`). ``fault(_:)`` says what a server does instead, and gives
        /// the code `CurlTransport` would report for it.
        public static func fail(_ code: URLError.Code) -> Action {
            .answer(.failure(Interaction.Failure(URLError(code))))
        }

        /// Whether the interaction is put back after the fault fires, so that a retry gets the recording (every
        /// action but a delay, which replays the recording itself).
        package var replacesTheRecording: Bool {
            if case .delay = self { return false }
            return true
        }
    }

    /// The interaction index it applies to, or `nil` for any matching `predicate`.
    public var interaction: Int?
    /// What happens.
    public var action: Action
    /// How many times it fires, or `nil` for every time.
    public var times: Int?
    /// Which recorded requests it applies to.
    public var predicate: @Sendable (Interaction.Request) -> Bool

    /// A fault for the interaction at `interaction` (or every interaction when `nil`).
    public init(interaction: Int? = nil, action: Action, times: Int? = nil) {
        self.interaction = interaction
        self.action = action
        self.times = times
        self.predicate = { _ in true }
    }

    /// A fault for the recorded requests `predicate` accepts.
    public init(action: Action, times: Int? = nil, when predicate: @escaping @Sendable (Interaction.Request) -> Bool) {
        self.interaction = nil
        self.action = action
        self.times = times
        self.predicate = predicate
    }

    func applies(to index: Int, _ request: Interaction.Request) -> Bool {
        (interaction == nil || interaction == index) && predicate(request)
    }

    /// What replaying `playback` meets: the action of the first of `faults` that applies to it and has firings left
    /// (`firings` counts them by position in `faults`), or `nil` for the recorded answer. A fault that replaces the
    /// recording puts the interaction back in line (unless the player repeats), so a client that retries gets the
    /// recorded answer next. The in-process transport and the stub server serving a cassette both fire faults
    /// through this.
    package static func firing(_ faults: [ReplayFault], for playback: CassettePlayer.Playback, firings: inout [Int: Int],
                               player: inout CassettePlayer) -> Action? {
        firstFiring(faults, times: \.times, for: playback, firings: &firings, player: &player,
                    applies: { $0.applies(to: playback.index, playback.interaction.request) },
                    requeues: \.action.replacesTheRecording)?.action
    }

    /// The first of `faults` that `applies` to `playback` and has firings left (`times`), counting its firing in
    /// `firings` (by position in `faults`); one that `requeues` puts the interaction back in line (unless the player
    /// repeats). Replay faults and conversation faults (``ConversationFault``) both fire through this.
    package static func firstFiring<Fault>(_ faults: [Fault], times: (Fault) -> Int?, for playback: CassettePlayer.Playback,
                                           firings: inout [Int: Int], player: inout CassettePlayer,
                                           applies: (Fault) -> Bool, requeues: (Fault) -> Bool) -> Fault? {
        for (position, fault) in faults.enumerated() where applies(fault) {
            let fired = firings[position, default: 0]
            if let limit = times(fault), fired >= limit { continue }
            firings[position] = fired + 1
            if requeues(fault), !player.allowPlaybackRepeats { player.requeue(playback.index) }
            return fault
        }
        return nil
    }
}
