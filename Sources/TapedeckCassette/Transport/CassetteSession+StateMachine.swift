import Foundation
import TapedeckCore

extension CassetteSession {
    /// A recording session's bookkeeping apart from the disk: what the cassette holds, which secrets it learned,
    /// which answers drifted, whether it is closed. Under the session's lock it decides what a commit, a
    /// re-recording or the finish must write; the session writes it after that lock, and tells it what was written.
    /// Pure: interactions in, decisions out, so it is tested without files.
    ///
    /// ```swift
    /// var state = CassetteSession.StateMachine(player: CassettePlayer(cassette: Cassette()), file: "c.json")
    /// let first = try state.commit(interaction, ownSecrets: [], redaction: .default, volatileHeaders: [])
    /// first.base          // the cassette as it was: the file is written once before the journal opens
    /// state.committed(first)
    /// ```
    struct StateMachine {
        var player: CassettePlayer
        /// The cassette file, for errors.
        let file: String
        /// Whether the cassette file has been written once, so recordings go to the journal.
        var baseWritten = false
        /// The answers recorded before that live answers are compared with for ``drift``: the cassette this session
        /// re-records (``RecordMode/all``), or the one it spies on (``RecordMode/spy``); and where each request
        /// (``RequestPlace/key(_:)``) stands in them, worked out when first needed.
        var previous: [Interaction] = []
        private var previousPositions: [String: [Int]]?
        /// How many spied answers to each request key have been compared with ``previous`` so far.
        var previousCompared: [String: Int] = [:]
        /// `#index METHOD URL: rule: what` of every live answer that drifted from the one recorded before it.
        var drift: [String] = []
        /// Positions of the interactions recorded over ``previous``, in commit order: when the session finishes, each is
        /// paired with the earlier recording of its request and compared for drift, work the recording path leaves.
        var recordedOverPrevious: [Int] = []
        var faultFirings: [Int: Int] = [:]
        /// Firings of the configuration's `conversationFaults`, by position.
        var conversationFaultFirings: [Int: Int] = [:]
        var closed = false
        /// `METHOD URL` of every request that went live instead of to the cassette.
        var liveRequests: [String] = []
        /// `#index METHOD URL (recorded …)` of every expired interaction replayed anyway.
        var expired: [String] = []
        /// Why the recording stored the match rules it recognised (GraphQL), for the summary.
        var recognised: [String] = []
        /// Why this session records no more: the cassette changed under it (``CassetteError/changedWhileRecording``).
        var conflict: CassetteError?
        /// The secrets learned from the interactions recorded so far, scrubbed from every interaction.
        var secrets = SecretLedger()
        /// Secrets found in sidecar bodies as they were redacted (before their interaction is committed): the next
        /// commit, or the finish, learns them into ``secrets``.
        var pendingSecrets: [String] = []
        /// Secrets the ledger took with a large body's index (``SecretLedger/adopt(_:extending:)``) that the stored
        /// interactions are not yet scrubbed of: the next commit, or the finish, scrubs them.
        var adoptedSecrets: [String] = []
        /// Positions of the interactions recorded with a sidecar body, scrubbed again when finishing of the secrets
        /// learned after their bodies were written.
        var sidecarPositions: [Int] = []
        /// Where each interaction recorded in this session stands, with the ticket its request drew when it was
        /// sent (``CassetteSession/sendTicket()``), in commit order: finishing puts them in the order of their tickets.
        var recordings: [(position: Int, ticket: UInt64)] = []

        init(player: CassettePlayer, file: String, previous: [Interaction] = []) {
            self.player = player
            self.file = file
            self.previous = previous
        }

        /// Where the requests of `key` stand in ``previous``.
        mutating func earlierPositions(of key: String) -> [Int]? {
            if previousPositions == nil {
                var positions: [String: [Int]] = [:]
                for (position, interaction) in previous.enumerated() {
                    positions[RequestPlace.key(interaction.request), default: []].append(position)
                }
                previousPositions = positions
            }
            return previousPositions?[key]
        }

        /// What one commit writes, in this order, before ``committed(_:)`` adds its interaction.
        struct Commit: Sendable {
            /// The interaction as it goes on disk (scrubbed of every secret learned; the earlier recording itself
            /// when it is the same traffic).
            var interaction: Interaction
            /// Its position in the cassette, the journal line's sequence number.
            var position: Int
            /// The cassette before this commit, when the file must be written before the journal opens (the
            /// session's first commit).
            var base: Cassette?
            /// The whole cassette with the interaction, when interactions already stored were scrubbed of a secret
            /// learned only now (the file is written again instead of a journal line).
            var rewrite: Cassette?
            /// The ticket its request drew when it was sent.
            var ticket: UInt64
        }

        /// Decides a commit of `interaction` (already redacted by the rules; `ownSecrets` are the values that took):
        /// learns its secrets and scrubs their copies everywhere.
        ///
        /// - Throws: ``CassetteError/closed(file:)``, or the conflict that stopped this session.
        mutating func commit(_ interaction: Interaction, ownSecrets: [String], redaction: Redaction,
                             volatileHeaders: Set<String>, ticket: UInt64 = 0) throws(CassetteError) -> Commit {
            try checkRecording()
            var interaction = interaction
            let learned = adoptedSecrets + secrets.learn(ownSecrets + pendingSecrets)
            (pendingSecrets, adoptedSecrets) = ([], [])
            _ = redaction.scrubCopies(in: &interaction, of: secrets.index)
            let position = player.cassette.interactions.count
            try checkReadable(interaction, at: position)
            let scrubbedStored = scrubStored(of: learned, redaction: redaction)
            if position < previous.count, CassetteSession.equivalent(previous[position], interaction, volatile: volatileHeaders) {
                interaction = previous[position]
            }
            var whole: Cassette?
            if scrubbedStored {
                whole = player.cassette
                whole?.interactions.append(interaction)
            }
            return Commit(interaction: interaction, position: position, base: baseWritten ? nil : player.cassette, rewrite: whole,
                          ticket: ticket)
        }

        /// Adds the interaction of `commit`, now on disk, and pairs it with its earlier recording for drift.
        mutating func committed(_ commit: Commit) {
            baseWritten = true
            if !previous.isEmpty { recordedOverPrevious.append(commit.position) }
            if commit.interaction.request.body.sidecarPath != nil || commit.interaction.response?.body.sidecarPath != nil {
                sidecarPositions.append(commit.position)
            }
            recordings.append((commit.position, commit.ticket))
            player.record(commit.interaction)
        }

        /// Puts the interactions recorded in this session in the order their requests were sent: they were committed
        /// as they finished, so two exchanges in flight at once may stand the other way round, and a replay by
        /// position would cross their answers. Interactions recorded before keep their places. Returns whether any
        /// moved.
        mutating func putRecordingsInSendingOrder() -> Bool {
            let places = recordings.map(\.position)
            let bySending = recordings.sorted { $0.ticket < $1.ticket }
            guard bySending.map(\.position) != places else { return false }
            var order = Array(player.cassette.interactions.indices)  // order[new] is the old position
            for (place, recording) in zip(places, bySending) { order[place] = recording.position }
            var moved = order  // moved[old] is the new position
            for (new, old) in order.enumerated() { moved[old] = new }
            player.reorder(order)
            recordings = zip(places, bySending).map { ($0, $1.ticket) }
            recordedOverPrevious = recordedOverPrevious.map { moved[$0] }.sorted()
            sidecarPositions = sidecarPositions.map { moved[$0] }.sorted()
            faultFirings = Dictionary(uniqueKeysWithValues: faultFirings.map { (moved[$0.key], $0.value) })
            conversationFaultFirings = Dictionary(uniqueKeysWithValues: conversationFaultFirings.map { (moved[$0.key], $0.value) })
            return true
        }

        /// Puts a re-recording of interaction `index` in its place, after learning its secrets and scrubbing their
        /// copies everywhere. Returns it as stored, the interaction it replaced, and the cassette to write.
        ///
        /// - Throws: ``CassetteError/closed(file:)``, or the conflict that stopped this session.
        mutating func replace(_ index: Int, with interaction: Interaction, redaction: Redaction)
            throws(CassetteError) -> (stored: Interaction, earlier: Interaction, cassette: Cassette) {
            try checkRecording()
            var interaction = interaction
            // A filter that gave up refuses the re-recording before anything changes but the ledger (learning a
            // secret is harmless); the part it gave up on is the placeholder already.
            let (learned, giveUps) = RedactionGiveUps.collecting { redaction.redact(&interaction, ledger: &secrets) }
            try Redaction.refuse(giveUps, file: file, place: interaction.request.summary)
            try checkReadable(interaction, at: index)
            scrubStored(of: learned, redaction: redaction)
            let earlier = player.cassette.interactions[index]
            player.replace(index, with: interaction)
            return (interaction, earlier, player.cassette)
        }

        /// What finishing does, decided when it starts.
        enum Closing {
            /// Nothing: an earlier finish closed the session.
            case closed
            /// The cassette changed under the session: it is closed, and the conflict is what finishing throws.
            case conflict(CassetteError)
            /// Write what the session holds; `rewrite` when the secrets learned last were scrubbed from stored
            /// interactions, or recordings were put in the order they were sent, so the file must be written whole.
            case open(rewrite: Bool)
        }

        /// Starts finishing: learns the secrets still pending and scrubs their copies from the stored interactions, and
        /// puts this session's recordings in the order their requests were sent.
        mutating func closing(redaction: Redaction) -> Closing {
            if let conflict {
                closed = true
                return .conflict(conflict)
            }
            if closed { return .closed }
            let pending = adoptedSecrets + secrets.learn(pendingSecrets)
            (pendingSecrets, adoptedSecrets) = ([], [])
            let scrubbed = scrubStored(of: pending, redaction: redaction)
            return .open(rewrite: putRecordingsInSendingOrder() || scrubbed)
        }

        /// The interactions recorded over ``previous``, each with the earlier recording of its request, taken out to
        /// be compared (once) when the session finishes.
        mutating func takeDriftPairs() -> [(earlier: Interaction, recorded: Interaction, position: Int)] {
            let interactions = player.cassette.interactions
            let recorded = recordedOverPrevious.filter { $0 < interactions.count }
            recordedOverPrevious = []
            let pairs = ResponseDrift.pairs(recorded: recorded.map { interactions[$0].request }, earlier: previous.map(\.request))
            return pairs.map { (previous[$0.earlier], interactions[recorded[$0.recorded]], recorded[$0.recorded]) }
        }

        /// Scrubs copies of `secrets`, just learned, from the interactions the cassette already holds. Returns whether
        /// any changed (the file must then be written again).
        @discardableResult
        mutating func scrubStored(of secrets: [String], redaction: Redaction) -> Bool {
            guard !secrets.isEmpty, !player.cassette.interactions.isEmpty else { return false }
            // Many learned at once (a token from every record of an export): the ledger, which holds them indexed, is
            // scrubbed again whole (the secrets learned before were scrubbed already, so it changes nothing more).
            guard secrets.count <= Redaction.secretsCheckedOneByOne else { return scrubStoredCopies(of: self.secrets.index, redaction: redaction) }
            return scrubStoredCopies(of: secrets, redaction: redaction)
        }

        private mutating func scrubStoredCopies(of secrets: some SecretsToScrub, redaction: Redaction) -> Bool {
            var changed = false
            for index in player.cassette.interactions.indices {
                var stored = player.cassette.interactions[index]
                if redaction.scrubCopies(in: &stored, of: secrets) {
                    player.rescrub(index, to: stored)
                    changed = true
                }
            }
            return changed
        }

        /// Refuses an interaction that loading would refuse (chunks that do not add up to the body), before it is
        /// written: a recorder never leaves a cassette it cannot read back.
        private func checkReadable(_ interaction: Interaction, at position: Int) throws(CassetteError) {
            guard let response = interaction.response, let chunks = response.chunks,
                  let problem = TimedChunk.problem(in: chunks, total: response.body.byteCount) else { return }
            throw CassetteError.unreadableRecording(file: file, request: interaction.request.summary,
                                                    place: "interactions[\(position)].response.chunks", reason: problem)
        }

        private func checkRecording() throws(CassetteError) {
            if closed { throw CassetteError.closed(file: file) }
            if let conflict { throw conflict }
        }
    }
}
