import Foundation
import Testing
@testable import TapedeckCassette

/// The recording session's decisions, without files: what each commit, re-recording and finish must write.
@Suite struct CassetteSessionStateMachineTests {
    private typealias StateMachine = CassetteSession.StateMachine

    private func machine(_ interactions: [Interaction] = [], previous: [Interaction] = []) -> StateMachine {
        StateMachine(player: CassettePlayer(cassette: Cassette(interactions: interactions)), file: "c.json", previous: previous)
    }

    private func commit(_ interaction: Interaction, into state: inout StateMachine, secrets: [String] = []) throws -> StateMachine.Commit {
        try state.commit(interaction, ownSecrets: secrets, redaction: .default, volatileHeaders: ["Date"])
    }

    @Test func theFirstCommitWritesTheFileAndTheNextOnlyAJournalLine() throws {
        var state = machine([interaction("GET", "http://h/old")])
        let first = try commit(interaction("GET", "http://h/a"), into: &state)
        #expect(first.position == 1)
        #expect(first.base?.interactions.map(\.request.url) == ["http://h/old"], "the cassette as loaded, before the journal opens")
        #expect(first.rewrite == nil)
        #expect(state.player.cassette.interactions.count == 1, "nothing is added before it is on disk")
        state.committed(first)
        #expect(state.baseWritten)
        let second = try commit(interaction("GET", "http://h/b"), into: &state)
        #expect(second.position == 2 && second.base == nil && second.rewrite == nil)
        state.committed(second)
        #expect(state.player.cassette.interactions.map(\.request.url) == ["http://h/old", "http://h/a", "http://h/b"])
        #expect(state.player.playedIndices == [1, 2])
    }

    @Test func aCommitThatIsNeverWrittenLeavesNoTrace() throws {
        var state = machine(previous: [interaction("GET", "http://h/a", responseBody: "old")])
        _ = try commit(interaction("GET", "http://h/a", responseBody: "new"), into: &state)
        let retried = try commit(interaction("GET", "http://h/a", responseBody: "new"), into: &state)
        #expect(retried.position == 0 && retried.base != nil, "the refused write is decided again")
        #expect(state.takeDriftPairs().isEmpty, "a refused interaction is not compared for drift")
    }

    @Test func aSecretLearnedLateRewritesTheWholeCassetteScrubbed() throws {
        let secret = "tok-9f8e7d6c5b4a3210"
        var state = machine()
        state.committed(try commit(interaction("GET", "http://h/echo?seen=\(secret)"), into: &state))
        let late = try commit(interaction("GET", "http://h/login"), into: &state, secrets: [secret])
        let whole = try #require(late.rewrite)
        #expect(whole.interactions.count == 2)
        #expect(!whole.interactions.contains { $0.request.url.contains(secret) })
        #expect(!state.player.cassette.interactions[0].request.url.contains(secret), "the stored copy is scrubbed too")
        #expect(late.base == nil)
    }

    @Test func theSameTrafficAgainKeepsTheEarlierRecordingAndDriftIsPairedOnceWritten() throws {
        let earlier = interaction("GET", "http://h/a", responseBody: "same")
        var state = machine(previous: [earlier, interaction("GET", "http://h/b", responseBody: "old")])
        var again = interaction("GET", "http://h/a", responseBody: "same")
        again.recordedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try commit(again, into: &state)
        #expect(first.interaction.recordedAt == earlier.recordedAt, "unchanged traffic is the same bytes")
        state.committed(first)
        state.committed(try commit(interaction("GET", "http://h/b", responseBody: "new"), into: &state))
        let pairs = state.takeDriftPairs()
        #expect(pairs.map(\.position) == [0, 1])
        #expect(pairs.map { $0.earlier.request.url } == ["http://h/a", "http://h/b"])
        #expect(state.takeDriftPairs().isEmpty, "taken once")
    }

    @Test func aClosedOrConflictedSessionRecordsNoMore() throws {
        var state = machine()
        state.closed = true
        let closed = #expect(throws: CassetteError.self) { try commit(interaction("GET", "http://h/a"), into: &state) }
        guard case .closed(file: "c.json")? = closed else { Issue.record("expected closed, got \(String(describing: closed))"); return }
        guard case .closed = state.closing(redaction: .default) else { Issue.record("closed twice"); return }

        var conflicted = machine()
        conflicted.conflict = .changedWhileRecording(file: "c.json", change: "was removed", savedTo: "c.json", count: 0)
        let refused = #expect(throws: CassetteError.self) { try commit(interaction("GET", "http://h/a"), into: &conflicted) }
        guard case .changedWhileRecording? = refused else { Issue.record("expected the conflict, got \(String(describing: refused))"); return }
        guard case .conflict(.changedWhileRecording) = conflicted.closing(redaction: .default) else { Issue.record("expected the conflict"); return }
        #expect(conflicted.closed)
    }

    @Test func closingLearnsThePendingSecretsAndSaysWhetherTheFileMustBeRewritten() throws {
        let secret = "tok-0123456789abcdef"
        var state = machine()
        state.committed(try commit(interaction("GET", "http://h/echo?seen=\(secret)"), into: &state))
        state.pendingSecrets = [secret]
        guard case .open(let rewrite) = state.closing(redaction: .default) else { Issue.record("expected open"); return }
        #expect(rewrite)
        #expect(state.pendingSecrets.isEmpty && state.secrets.secrets == [secret])
        var clean = machine()
        guard case .open(false) = clean.closing(redaction: .default) else { Issue.record("nothing to rewrite"); return }
    }

    @Test func aReRecordingReplacesInPlaceAndNamesTheOneItReplaced() throws {
        var state = machine([interaction("GET", "http://h/a", responseBody: "1"), interaction("GET", "http://h/b", responseBody: "2")])
        let replaced = try state.replace(1, with: interaction("GET", "http://h/b", responseBody: "3"), redaction: .default)
        #expect(replaced.earlier.response?.body.inlineData == Data("2".utf8))
        #expect(replaced.cassette.interactions.map { $0.response?.body.inlineData } == [Data("1".utf8), Data("3".utf8)])
        #expect(state.player.cassette == replaced.cassette)
    }
}
