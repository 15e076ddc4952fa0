import Foundation
import TapedeckCore

/// Exact redaction while recording: the secrets learned from each committed interaction are scrubbed from the
/// interactions already stored (``StateMachine/scrubStored(of:redaction:)``), and, when the session finishes, from
/// the sidecar files it wrote.
extension CassetteSession {
    /// Scrubs the sidecar bodies this session wrote of every secret it learned (a body written before a secret was
    /// learned may hold a copy): each file that changes is written under its new content's name, the interaction
    /// points at it, and the old file goes once nothing refers to it. Returns whether any interaction changed.
    /// Called under ``disk``: the files are read and written outside the state's lock.
    func scrubSidecars() throws(CassetteError) -> Bool {
        let (secrets, cassette, positions) = state.withLock { ($0.secrets.index, $0.player.cassette, $0.sidecarPositions) }
        guard !secrets.isEmpty, !positions.isEmpty else { return false }
        var rewrite = SidecarRewrite(cassette: url)
        var interactions = cassette.interactions
        var changed = Set<Int>()
        for body in SidecarRewrite.bodies(of: cassette, at: positions) {
            let replaced: Bool
            if body.byteCount <= Int64(BodyCapture.redactableLimit) {
                let data = try rewrite.data(of: body)
                replaced = try rewrite.replace(body, original: data, with: redaction.scrubBytes(data, secrets: secrets), in: &interactions)
            } else {
                // Too large to hold in memory: read once to see whether it holds a copy (it seldom does: the secrets
                // known when it was written were scrubbed as it streamed), then scrubbed from the old file to a new one.
                guard try rewrite.holdsCopy(of: secrets, in: body) else { continue }
                replaced = try rewrite.replaceStreaming(body, through: BodyRedactionStream(scrubbing: secrets, as: redaction), in: &interactions)
            }
            if replaced { changed.insert(body.index) }
        }
        guard !changed.isEmpty else { return false }
        let kept = state.withLock { state in
            for position in changed.sorted() { state.player.rescrub(position, to: interactions[position]) }
            return state.player.cassette.interactions
        }
        rewrite.removeReplaced(keepingThoseOf: kept)
        return true
    }
}
