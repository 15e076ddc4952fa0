import Foundation
import Synchronization
import TapedeckCore

/// The mutable side of a ``CassetteTransport``: the replay engine, the journal, fault counters. Concurrent tasks may
/// replay and record through one transport.
///
/// Two locks, taken in this order and never the other: ``disk`` (the cassette lock, the journal, the file as last
/// written), held across every write so that writes happen in the order they were decided; then the state's, held
/// only while ``StateMachine`` decides or takes note, never across a write, so replaying never waits for the disk.
final class CassetteSession: Sendable {
    /// What the session holds open on disk; changed only under ``disk``.
    struct Disk {
        var lock: FileLock?
        var journal: Journal?
        /// Recordings in the journal and not yet in the file.
        var journaled = 0
        /// The cassette file as this session last read or wrote it (`nil`: there was none), compared before every
        /// write so that a change by someone else is found instead of overwritten.
        var onDisk: FileIdentity?
    }

    let url: URL
    let mode: RecordMode
    /// The configuration with the replay rules it leaves unset taken from the cassette (``CassetteConfiguration/replaying(_:)``).
    let configuration: CassetteConfiguration
    /// What the summary says about the replay rules: those set in code that override the cassette's, and those that
    /// could not be stored.
    let ruleNotes: [String]
    /// The configuration's redaction with the cassette's salt: recorded secrets become their stand-ins.
    let redaction: Redaction
    let upstream: (any HTTPTransport)?
    /// Whether requests are looked up in the cassette.
    let replays: Bool
    /// Whether requests that are not replayed are recorded.
    let records: Bool
    /// Which hosts the cassette covers.
    let hostRules: HostRules
    /// The recording's time while this session only replays (``ReplayTime/recorded``), else `nil`.
    let recordingClock: RecordingClock?
    /// Whether a match rule reads the request body (``MatchRule/readsBody``), so a file or stream body must be read.
    let matchingReadsBody: Bool
    /// The bookkeeping: taken briefly, never across a write.
    let state: Locked<StateMachine>
    /// The files: taken before ``state`` and held across each write, so that writes happen in the order decided.
    let disk: Locked<Disk>
    /// What MCP servers pushed on their sessions' `GET` streams during each call (replaying under a `jsonRPC` rule),
    /// and the streams open now.
    let pushes: SessionPushes?
    let pushStreams = SessionPushStreams<ReplayedPushStream>()
    /// The next ``sendTicket()``.
    private let tickets = Atomic<UInt64>(0)

    init(url: URL, mode: RecordMode, upstream: (any HTTPTransport)?, configuration: CassetteConfiguration,
         allowedHosts: Set<String>?) throws(CassetteError) {
        self.url = url
        self.mode = mode
        self.upstream = upstream
        hostRules = HostRules(ignoreHosts: configuration.ignoreHosts, ignoreLoopback: configuration.ignoreLoopback,
                              allowedHosts: allowedHosts)
        let exists = CassetteFile.exists(url)
        switch mode {
        case .replay:
            guard exists else { throw CassetteError.cassetteNotFound(file: url.path, mode: mode) }
            (replays, records) = (true, false)
        case .once: (replays, records) = exists ? (true, false) : (false, true)
        case .newEpisodes: (replays, records) = (true, true)
        case .all: (replays, records) = (false, true)
        case .passthrough: (replays, records) = (false, false)
        case .spy:
            guard exists else { throw CassetteError.cassetteNotFound(file: url.path, mode: mode) }
            (replays, records) = (true, false)
        }
        if (records || mode == .passthrough || mode == .spy) && upstream == nil {
            throw CassetteError.noUpstream(file: url.path, mode: mode)
        }
        let lock = records ? try FileLock(cassette: url) : nil
        // Taken before reading: a change made while we read shows as a change (refused), never as no change.
        var onDisk = FileIdentity.of(url.path)
        var loaded = Cassette()
        var previous: [Interaction] = []
        if mode == .all {
            let old = try? CassetteFile.load(url)
            previous = old?.interactions ?? []
            // The same salt: an interaction recorded again with the same secrets is the same bytes.
            loaded.redactionSalt = old?.redactionSalt
            loaded.replayRules = old?.replayRules ?? ReplayRules()
        } else if replays || (records && exists) {
            loaded = try CassetteFile.load(url)
            // Interactions journaled by a recorder that died are folded into the file now that we hold the lock.
            let journal = CassetteFile.journalURL(url)
            if lock != nil, let size = try? FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? NSNumber, size.intValue > 0 {
                try CassetteFile.save(loaded, to: url)
                try? FileManager.default.removeItem(at: journal)
                onDisk = FileIdentity.of(url.path)
            }
        }
        // A request that goes live in spy mode is compared with the cassette's answer for the same request, if any.
        if mode == .spy { previous = loaded.interactions }
        var notes = configuration.overrides(of: loaded.replayRules)
        let storedRules = loaded.replayRules
        if records {
            let stored = configuration.rulesToStore(over: storedRules)
            loaded.replayRules = stored.rules
            notes += stored.notes
        }
        let configuration = configuration.replaying(storedRules)
        self.configuration = configuration
        ruleNotes = notes
        matchingReadsBody = configuration.matching.contains { $0.readsBody }
        if records && loaded.redactionSalt == nil && configuration.redaction.redactsDefaults {
            loaded.redactionSalt = .random()
        }
        redaction = configuration.redaction.standingIn(loaded.redactionSalt)
        let onlyReplays = replays && !records && mode != .spy && configuration.replayTime == .recorded
        recordingClock = onlyReplays ? loaded.interactions.first.map { RecordingClock(start: $0.recordedAt) } : nil
        let cassetteURL = url
        let player = CassettePlayer(
            cassette: loaded, name: url.path, matching: configuration.matching,
            allowPlaybackRepeats: configuration.allowPlaybackRepeats, redaction: configuration.redaction,
            bodyBytes: { body in try? CassetteFile.bodyData(body, cassette: cassetteURL) })
        state = Locked(StateMachine(player: player, file: url.path, previous: previous))
        disk = Locked(Disk(lock: lock, onDisk: onDisk))
        pushes = replays ? SessionPushes.replaying(loaded, matching: configuration.matching,
                                                   bodyBytes: { body in try? CassetteFile.bodyData(body, cassette: cassetteURL) }) : nil
    }

    deinit {
        disk.withLock { disk in try? compact(&disk) }
    }

    func lookup(_ request: Interaction.Request) -> Result<CassettePlayer.Playback, CassetteError> {
        state.withLock { state in
            if state.closed { return .failure(.closed(file: url.path)) }
            return state.player.play(request)
        }
    }

    func checkOpen() throws(CassetteError) {
        if state.withLock({ $0.closed }) { throw CassetteError.closed(file: url.path) }
    }

    /// The fault replaying `playback` meets, counting its firing (`ReplayFault.firing`).
    func fault(for playback: CassettePlayer.Playback) -> ReplayFault.Action? {
        if configuration.faults.isEmpty { return nil }  // the common case, without taking the lock
        return state.withLock { state in
            ReplayFault.firing(configuration.faults, for: playback, firings: &state.faultFirings, player: &state.player)
        }
    }

    /// Notes that interaction `index` was replayed although it expired (for the summary).
    func noteExpired(_ index: Int, _ interaction: Interaction) {
        let line = "#\(index) \(interaction.request.summary) (recorded \(Timestamp.format(interaction.recordedAt)))"
        state.withLock { $0.expired.append(line) }
    }

    /// Puts a re-recording of interaction `index` in its place (redacted, and scrubbed of `secrets`): the whole file is
    /// written again (the journal only appends), atomically.
    func replace(_ index: Int, with interaction: Interaction, scrubbing secrets: [String] = []) throws(CassetteError) {
        var interaction = interaction
        redaction.scrub(&interaction, secrets: secrets)
        try disk.withLock { (disk: inout Disk) throws(CassetteError) in
            let replaced = try state.withLock { (state: inout StateMachine) throws(CassetteError) in
                try state.replace(index, with: interaction, redaction: redaction)
            }
            if let line = ResponseDrift.line(recorded: replaced.earlier, live: replaced.stored, position: index, bodyData: bodyData) {
                state.withLock { $0.drift.append(line) }
            }
            try rewrite(replaced.cassette, &disk)
        }
    }

    /// Notes that `request` went live instead of to the cassette (for the summary).
    func noteLive(_ request: HTTPRequest) {
        state.withLock { $0.liveRequests.append("\(request.method.rawValue) \(request.url.absoluteString)") }
    }

    /// Compares the live answer to a request that spy mode sent upstream (it matched no unplayed interaction) with the
    /// cassette's answer for the same request, the next occurrence of its ``RequestPlace/key(_:)``, and notes any
    /// drift. The bodies are read and compared outside the lock. Answers whose body went to a file or a stream are
    /// not checked.
    func noteSpyDrift(of request: HTTPRequest, sentBody: Data, response: HTTPResponse) {
        guard mode == .spy, case .data(let received) = response.body else { return }
        let recorded = Interaction.Request(request, body: sentBody)
        let key = RequestPlace.key(recorded)
        let earlier = state.withLock { state -> (Int, Interaction)? in
            let occurrence = state.previousCompared[key, default: 0]
            guard let positions = state.earlierPositions(of: key), !positions.isEmpty else { return nil }
            state.previousCompared[key] = occurrence + 1
            let position = positions[min(occurrence, positions.count - 1)]
            return (position, state.previous[position])
        }
        guard let (position, earlierInteraction) = earlier else { return }
        let answer = Interaction.Response(statusCode: response.statusCode, headers: response.head.headers,
                                          body: Recorder.decodedIfCompressed(CassetteBody(received), headers: response.head.headers))
        let live = Interaction(request: recorded, outcome: .response(answer))
        guard let line = ResponseDrift.line(recorded: earlierInteraction, live: live, position: position, bodyData: bodyData) else { return }
        state.withLock { $0.drift.append(line) }
    }

    /// The secrets learned from the interactions recorded so far, indexed, for bodies redacted before their
    /// interaction is committed (sidecar bodies).
    var learnedSecrets: SecretOccurrences {
        state.withLock { $0.secrets.index }
    }

    /// Offers the index a large body's stream ended with, which started from ``learnedSecrets`` when they were `count`
    /// secrets: the ledger takes it instead of indexing the body's secrets again, unless it learned something since.
    func adoptSecrets(_ index: SecretOccurrences, extending count: Int) {
        state.withLock { state in
            guard let learned = state.secrets.adopt(index, extending: count) else { return }
            state.adoptedSecrets += learned
        }
    }

    /// Notes secrets a sidecar body held where a rule redacted it (a large JSON body's `password`), so that their
    /// copies in other interactions and parts are scrubbed from the next commit on.
    func notePendingSecrets(_ values: [String]) {
        guard !values.isEmpty else { return }
        state.withLock { $0.pendingSecrets += values }
    }

    /// The next ticket in the order requests are sent: a recording draws one when its request goes upstream, and
    /// finishing stores recordings in the order of their tickets (``StateMachine/putRecordingsInSendingOrder()``).
    func sendTicket() -> UInt64 {
        tickets.add(1, ordering: .relaxed).oldValue
    }

    /// Whether recordings go to the journal: the cassette file itself has been written once.
    var isJournaling: Bool {
        state.withLock { $0.baseWritten && !$0.closed }
    }

    /// Redacts `interaction` (and scrubs copies of `secrets`, the values filled into the request that went out, which
    /// the cassette's ledger then scrubs everywhere), adds it to the cassette and puts it on disk before returning.
    /// `ticket` is the one its request drew when it was sent (``sendTicket()``); without one, it counts as sent now.
    ///
    /// - Throws: ``CassetteError/changedWhileRecording(file:change:savedTo:count:)`` when someone else changed or
    ///   removed the cassette file since this session last read or wrote it (the interaction is saved with the
    ///   others, not lost); ``CassetteError/io(file:operation:reason:)`` when the disk refuses the write.
    func commit(_ interaction: Interaction, scrubbing secrets: [String] = [], ticket: UInt64? = nil) throws(CassetteError) {
        let ticket = ticket ?? sendTicket()
        var interaction = interaction
        redaction.scrub(&interaction, secrets: secrets)
        // Outside the locks: the interaction's own secrets (parsing its bodies); under the state's, the ledger's.
        let (redacted, giveUps) = RedactionGiveUps.collecting { redaction.redactReturningSecrets(&interaction) }
        // Named as redacted (the part a filter gave up on is the placeholder by now); nothing is written.
        try Redaction.refuse(giveUps, file: url.path, place: interaction.request.summary)
        let own = redacted + secrets
        try disk.withLock { (disk: inout Disk) throws(CassetteError) in
            let commit = try state.withLock { (state: inout StateMachine) throws(CassetteError) in
                try state.commit(interaction, ownSecrets: own, redaction: redaction, volatileHeaders: configuration.volatileHeaders,
                                 ticket: ticket)
            }
            try checkUnchanged(&disk, pending: commit.interaction)
            if let base = commit.base {
                try save(base, &disk)
                disk.journal = try Journal(path: CassetteFile.journalURL(url).path)
            }
            if let whole = commit.rewrite {
                // Interactions already on disk held a copy of a secret learned only now: the whole file is written
                // again (rare: the common secret is learned where it first appears).
                try rewrite(whole, &disk)
            } else {
                // Into the journal before the cassette: an interaction the disk refused is not in the cassette either.
                try disk.journal?.append(CassetteFile.journalLine(commit.interaction, sequence: commit.position))
                disk.journaled += 1
            }
            // The journal is folded into the file by finish(), deinit, or the next recorder to open the cassette:
            // folding while recording would rewrite the whole file again and again, and the journal already makes
            // every recording durable (CassetteFile.load merges it).
            state.withLock { $0.committed(commit) }
        }
    }

    /// A body's bytes, sidecar files included, or `nil` when they cannot be read.
    private func bodyData(_ body: CassetteBody) -> Data? {
        try? CassetteFile.bodyData(body, cassette: url)
    }

    /// Folds the journal into the cassette file.
    private func compact(_ disk: inout Disk) throws(CassetteError) {
        guard disk.journaled > 0,
              let cassette = state.withLock({ $0.baseWritten && $0.conflict == nil ? $0.player.cassette : nil })
        else { return }
        try rewrite(cassette, &disk)
    }

    /// Writes `cassette` as the whole file, atomically; it holds the journal's recordings, so the journal is emptied.
    private func rewrite(_ cassette: Cassette, _ disk: inout Disk) throws(CassetteError) {
        try checkUnchanged(&disk, pending: nil)
        try save(cassette, &disk)
        try disk.journal?.truncate()
        disk.journaled = 0
    }

    /// Saves `cassette` as the whole file and remembers the file's new identity.
    private func save(_ cassette: Cassette, _ disk: inout Disk) throws(CassetteError) {
        try CassetteFile.save(cassette, to: url)
        disk.onDisk = FileIdentity.of(url.path)
    }

    func finish(requireAllPlayed: Bool) throws(CassetteError) -> CassetteSummary {
        pushStreams.closeAll()
        let pruned = try disk.withLock { (disk: inout Disk) throws(CassetteError) -> [String] in
            switch state.withLock({ $0.closing(redaction: redaction) }) {
            case .closed:
                return []
            case .conflict(let conflict):
                disk.journal = nil
                disk.lock = nil
                throw conflict
            case .open(let mustRewrite):
                // Each runs whatever the others found (`||` would skip the rest after the first that changed something).
                let sidecarsScrubbed = try scrubSidecars()
                let recognised = recogniseProtocol()
                let rescrubbed = sidecarsScrubbed || mustRewrite || recognised
                var pruned: [String] = []
                if configuration.pruneUnplayed, records, replays {
                    pruned = try pruneUnplayed(&disk)
                }
                if rescrubbed && pruned.isEmpty {
                    try rewrite(state.withLock { $0.player.cassette }, &disk)
                } else {
                    try compact(&disk)
                }
                if state.withLock({ $0.baseWritten }) { try? FileManager.default.removeItem(atPath: CassetteFile.journalURL(url).path) }
                disk.journal = nil
                disk.lock = nil
                state.withLock { $0.closed = true }
                return pruned
            }
        }
        // After the locks, as noteSpyDrift: comparing reads both bodies.
        let pairs = state.withLock { $0.takeDriftPairs() }
        let drift = pairs.compactMap { ResponseDrift.line(recorded: $0.earlier, live: $0.recorded, position: $0.position, bodyData: bodyData) }
        var ambiguities: [String] = []
        if records {
            let final = state.withLock { $0.player.cassette }
            ambiguities = ReplayAmbiguity.notes(in: final, matching: configuration.replaying(final.replayRules).matching, bodyBytes: bodyData)
        }
        let summary = state.withLock { state in
            state.drift += drift
            let interactions = state.player.cassette.interactions
            return CassetteSummary(
                file: url.path, mode: mode, interactionCount: interactions.count - pruned.count,
                unplayed: replays && pruned.isEmpty ? state.player.unplayedIndices.map { "#\($0) " + interactions[$0].request.summary } : [],
                liveRequests: state.liveRequests, pruned: pruned, expired: state.expired, drift: state.drift,
                played: pruned.isEmpty ? state.player.playedIndices : Array(0..<(interactions.count - pruned.count)),
                notes: ruleNotes + state.recognised + ambiguities)
        }
        if requireAllPlayed && !summary.unplayed.isEmpty {
            throw CassetteError.unplayedInteractions(file: url.path, requests: summary.unplayed)
        }
        return summary
    }

    /// When this run recorded, nobody chose match rules and the cassette stores none, stores the rules its requests
    /// call for (``MatchRule/recognised(in:bodyBytes:)``: GraphQL) and notes why; whether the rules changed. Only
    /// inline bodies are read: an operation in a body large enough for a sidecar file counts as another request.
    private func recogniseProtocol() -> Bool {
        guard records, configuration.chosen.matching == nil else { return false }
        let requests = state.withLock { state -> [Interaction.Request]? in
            guard !state.recordings.isEmpty, state.player.cassette.replayRules.matching == nil else { return nil }
            return state.player.cassette.interactions.map(\.request)
        }
        guard let requests, let (rules, reason) = MatchRule.recognised(in: requests, bodyBytes: { $0.inlineData }) else { return false }
        state.withLock { state in
            var stored = state.player.cassette.replayRules
            stored.matching = rules
            state.player.storeReplayRules(stored)
            state.recognised = [reason]
        }
        return true
    }

    /// Writes the cassette without the interactions this run never played (atomically; the journal's recordings are
    /// in it, so the journal is emptied), and removes the sidecar files only they referred to. Returns what was
    /// dropped, as `#index METHOD URL`.
    private func pruneUnplayed(_ disk: inout Disk) throws(CassetteError) -> [String] {
        let (cassette, played, unplayed) = state.withLock { ($0.player.cassette, $0.player.playedIndices, $0.player.unplayedIndices) }
        guard !unplayed.isEmpty else { return [] }
        let (pruned, dropped, orphans) = CassettePruning.split(cassette, keeping: Set(played))
        try rewrite(pruned, &disk)
        CassettePruning.removeSidecars(orphans, cassette: url)
        return dropped
    }

    /// Whether two interactions are the same traffic: only timing, recording time and volatile headers differ.
    static func equivalent(_ old: Interaction, _ new: Interaction, volatile: Set<String>) -> Bool {
        guard old.request == new.request, old.peerCertificates == new.peerCertificates else { return false }
        switch (old.outcome, new.outcome) {
        case (.failure(let a), .failure(let b)):
            return a == b
        case (.response(var a), .response(var b)):
            for name in volatile {
                if a.headers.values(for: name).count == b.headers.values(for: name).count {
                    a.headers.remove(name: name)
                    b.headers.remove(name: name)
                }
            }
            return a == b
        default:
            return false
        }
    }
}

/// What a cassette held when its transport finished.
public struct CassetteSummary: Sendable, Hashable {
    /// The cassette file.
    public var file: String
    /// The mode in effect.
    public var mode: RecordMode
    /// Interactions in the cassette, recorded ones included.
    public var interactionCount: Int
    /// `#index METHOD URL` of every interaction never played (replaying modes only).
    public var unplayed: [String]
    /// `METHOD URL` of every request that went live instead of to the cassette, in order: requests to ignored hosts,
    /// and in ``RecordMode/spy`` the ones the cassette did not have.
    public var liveRequests: [String] = []
    /// `#index METHOD URL` of every interaction dropped by ``CassetteConfiguration/pruneUnplayed`` (which are then
    /// not reported as ``unplayed``).
    public var pruned: [String] = []
    /// `#index METHOD URL (recorded …)` of every interaction replayed although ``CassetteConfiguration/expiresAfter``
    /// says it expired (the ``CassetteExpiry/Strategy/warn`` strategy, or ``CassetteExpiry/Strategy/reRecord``
    /// where the mode does not record).
    public var expired: [String] = []
    /// `#index METHOD URL: rule: what` of every answer recorded in this run that drifted from the answer recorded
    /// before it for the same request (re-recording with ``RecordMode/all``, or an expired interaction re-recorded):
    /// a changed status, media type or JSON shape, by the rules of `tapedeck verify` (``ContractRules``). Values
    /// that change (ids, dates) are not drift; a live transport error is not checked.
    public var drift: [String] = []
    /// Positions of the interactions this run played or recorded, in the cassette as it was left (for
    /// ``RunReport``).
    public var played: [Int] = []
    /// What this run has to say about the replay rules: rules set in code that override the cassette's, rules that
    /// could not be stored, rules stored because the recording recognised its protocol (GraphQL), and recorded
    /// requests the rules cannot tell apart although their bodies differ (``ReplayAmbiguity``).
    public var notes: [String] = []
}
