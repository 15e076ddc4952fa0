import Foundation
import TapedeckCore

/// The replay engine: a loaded cassette, an index from match key to the queue of recorded interactions, and which
/// ones have been played. Pure and I/O-free, so any front end can drive it: ``CassetteTransport`` in process, or
/// a server answering over sockets.
///
/// Lookup costs one key computation and one hash lookup whatever the cassette's size; the near-miss ranking is
/// computed only when nothing matches. Identical requests get their recorded responses in recorded order.
///
/// ```swift
/// var player = CassettePlayer(cassette: cassette, name: "login.json")
/// switch player.play(Interaction.Request(method: "GET", url: "http://127.0.0.1:8080/get")) {
/// case .success(let playback): print(playback.interaction.response?.statusCode ?? 0)
/// case .failure(let error): print(error)       // a near-miss report
/// }
/// ```
public struct CassettePlayer: Sendable {
    /// A request found its interaction.
    public struct Playback: Sendable {
        /// The interaction's position in the cassette.
        public var index: Int
        /// What to replay.
        public var interaction: Interaction
        /// Whether it had been played before (only with `allowPlaybackRepeats`).
        public var isRepeat: Bool
    }

    private struct Bucket: Sendable {
        var indices: [Int]
        var cursor = 0
    }

    /// The cassette, including interactions recorded through ``record(_:)``.
    public private(set) var cassette: Cassette
    /// The cassette's name in reports (usually its file path).
    public let name: String
    /// Whether an exhausted request replays its last interaction again.
    public let allowPlaybackRepeats: Bool
    /// The redaction applied to live requests before matching (the one used when recording).
    public let redaction: Redaction
    let matcher: RequestMatcher
    private var index: [MatchKey: Bucket] = [:]
    /// Interactions `0..<indexed` are in `index`; recorded ones join it at the next lookup, so recording pays for
    /// no key computation.
    private var indexed = 0
    private var played: [Bool] = []
    /// The secrets live requests carried so far: a later request is scrubbed of them as recording scrubbed it (a
    /// password sent at login and repeated in a later URL matches its recording's placeholder).
    private var secrets = SecretLedger()
    /// The `Mcp-Session-Id` each replayed session was given (under a `jsonRPC` rule only).
    private var sessions = MCPSessionIDs()

    /// Creates a player.
    ///
    /// - Parameters:
    ///   - cassette: the interactions to replay.
    ///   - name: what reports call the cassette (its file path, when it has one).
    ///   - matching: the rules (default: method and URL).
    ///   - allowPlaybackRepeats: whether an interaction already played may answer again.
    ///   - redaction: how live requests are scrubbed before matching, as recording scrubbed them.
    ///   - bodyBytes: reads a body's bytes for body rules, including sidecar bodies (the default reads inline ones only).
    public init(
        cassette: Cassette,
        name: String = "<memory>",
        matching: [MatchRule] = MatchRule.defaults,
        allowPlaybackRepeats: Bool = false,
        redaction: Redaction = .default,
        bodyBytes: @escaping @Sendable (CassetteBody) -> Data? = { $0.inlineData }
    ) {
        self.cassette = Cassette(redactionSalt: cassette.redactionSalt, replayRules: cassette.replayRules)
        self.name = name
        self.allowPlaybackRepeats = allowPlaybackRepeats
        // Live requests get the cassette's own stand-ins, so a secret sent again matches where it was recorded.
        self.redaction = redaction.standingIn(cassette.redactionSalt)
        self.matcher = RequestMatcher(rules: matching, bodyBytes: bodyBytes)
        self.cassette.interactions.reserveCapacity(cassette.interactions.count)
        for interaction in cassette.interactions { add(interaction, played: false) }
        indexPending()
    }

    /// Finds the interaction for `request` (redacted first, as recordings were) and marks it played.
    public mutating func play(_ request: Interaction.Request) -> Result<Playback, CassetteError> {
        indexPending()
        var live = request
        // What no rule reads (the body, header fields) is neither redacted nor kept for reports: no stand-in is made
        // for a token that nothing compares. Its secrets still join the ledger, to be scrubbed from what is compared.
        redaction.redactLive(&live, ledger: &secrets, keepingBody: matcher.readsBody, keepingHeaders: matcher.readsHeaders)
        let key = matcher.key(for: live)
        if let slot = index.index(forKey: key) {
            // Mutated in place through the dictionary's values: no copy, no rehash.
            let filtered = !matcher.filters.isEmpty
            var position = index.values[slot].cursor
            let count = index.values[slot].indices.count
            while position < count {
                let candidate = index.values[slot].indices[position]
                let isCursor = position == index.values[slot].cursor
                if !played[candidate] && (!filtered || matcher.passesFilters(live, cassette.interactions[candidate].request)) {
                    played[candidate] = true
                    if isCursor { index.values[slot].cursor += 1 }
                    return .success(playback(candidate, isRepeat: false, answering: request))
                }
                if played[candidate] && isCursor { index.values[slot].cursor += 1 }
                position += 1
            }
            let indices = index.values[slot].indices
            let matching = filtered ? indices.filter { matcher.passesFilters(live, cassette.interactions[$0].request) } : indices
            if let last = matching.last {
                if allowPlaybackRepeats || matcher.repeatsInEverySession(live) {
                    return .success(playback(last, isRepeat: true, answering: request))
                }
                return .failure(.unmatchedRequest(report(for: live, exhausted: matching)))
            }
        }
        return .failure(.unmatchedRequest(report(for: live, exhausted: [])))
    }

    /// Interaction `position` played for `request`: under a `jsonRPC` rule, its answer names the caller's MCP session
    /// (``MCPSessionIDs``).
    private mutating func playback(_ position: Int, isRepeat: Bool, answering request: Interaction.Request) -> Playback {
        var interaction = cassette.interactions[position]
        if matcher.readsJSONRPC, case .response(var response) = interaction.outcome, response.headers.contains(MCPSessionIDs.header) {
            sessions.answer(&response, request: request)
            interaction.outcome = .response(response)
        }
        return Playback(index: position, interaction: interaction, isRepeat: isRepeat)
    }

    /// Stores `rules` in the cassette (what a recording that recognised its protocol writes); the rules this
    /// player matches by stay as they were.
    mutating func storeReplayRules(_ rules: ReplayRules) {
        cassette.replayRules = rules
    }

    /// Appends a newly recorded interaction (marked played, so it is not reported as left over) and returns its index.
    @discardableResult
    public mutating func record(_ interaction: Interaction) -> Int {
        add(interaction, played: true)
    }

    /// Puts `interaction` in place of the one at `position` (a re-recording of the same request), marked played.
    public mutating func replace(_ position: Int, with interaction: Interaction) {
        guard cassette.interactions.indices.contains(position) else { return }
        cassette.interactions[position] = interaction
        played[position] = true
    }

    /// Puts `interaction`, a copy of the one at `position` with secrets scrubbed, in its place, played or not as it
    /// was; the index is rebuilt, since its request may now have another key.
    mutating func rescrub(_ position: Int, to interaction: Interaction) {
        guard cassette.interactions.indices.contains(position) else { return }
        cassette.interactions[position] = interaction
        index = [:]
        indexed = 0
    }

    /// Puts the interactions in the order `order` gives (`order[new]` is the old position of each), each played or
    /// not as it was; the index is rebuilt.
    mutating func reorder(_ order: [Int]) {
        precondition(order.sorted() == Array(cassette.interactions.indices), "not a reordering of the interactions")
        cassette.interactions = order.map { cassette.interactions[$0] }
        played = order.map { played[$0] }
        index = [:]
        indexed = 0
    }

    /// Positions of the interactions played (or recorded) so far.
    public var playedIndices: [Int] { played.indices.filter { played[$0] } }

    /// Positions of the interactions never played.
    public var unplayedIndices: [Int] { played.indices.filter { !played[$0] } }

    /// Puts interaction `position` back in its queue, unplayed, e.g. when an injected fault stood in for it so
    /// that a retry gets it.
    public mutating func requeue(_ position: Int) {
        guard played.indices.contains(position), played[position] else { return }
        indexPending()
        played[position] = false
        let key = matcher.key(for: cassette.interactions[position].request)
        if let slot = index[key]?.indices.firstIndex(of: position), slot < index[key]!.cursor {
            index[key]?.cursor = slot
        }
    }

    /// Marks every interaction unplayed again.
    public mutating func rewind() {
        for position in played.indices { played[position] = false }
        for key in index.keys { index[key]?.cursor = 0 }
    }

    @discardableResult
    private mutating func add(_ interaction: Interaction, played isPlayed: Bool) -> Int {
        let position = cassette.interactions.count
        cassette.interactions.append(interaction)
        played.append(isPlayed)
        return position
    }

    private mutating func indexPending() {
        while indexed < cassette.interactions.count {
            index[matcher.key(for: cassette.interactions[indexed].request), default: Bucket(indices: [])].indices.append(indexed)
            indexed += 1
        }
    }

    /// Ranks recorded requests by how far they are from `live` (`NearMiss.nearest`, the earliest first on a tie),
    /// each recorded request and way of differing once; only called on a miss.
    func report(for live: Interaction.Request, exhausted: [Int], limit: Int = 3) -> NearMissReport {
        var seen = Set<String>()
        typealias Candidate = (position: Int, request: Interaction.Request, differences: [NearMissDifference])
        let candidates = cassette.interactions.enumerated().compactMap { position, interaction -> Candidate? in
            let recorded = interaction.request
            let differences = matcher.differences(live, recorded)
            let signature = recorded.summary + "\u{0}" + differences.map(\.description).joined(separator: "\u{0}")
            return seen.insert(signature).inserted ? (position, recorded, differences) : nil
        }
        let nearest = NearMiss.nearest(candidates, toPath: String(URLParts(live.url).path), limit: limit,
                                       path: { String(URLParts($0.request.url).path) }, differences: { $0.differences })
        return NearMissReport(cassette: name, request: matcher.label(live), rules: matcher.rules.map(\.description),
                              candidates: nearest.map { .init(index: $0.candidate.position, request: matcher.label($0.candidate.request),
                                                              differences: $0.differences.map(\.description)) },
                              exhausted: exhausted)
    }
}
