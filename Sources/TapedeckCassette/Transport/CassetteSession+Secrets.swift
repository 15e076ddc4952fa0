import Foundation

/// Exact redaction while recording: the secrets learned from each committed interaction are scrubbed from the
/// interactions already stored, and, when the session finishes, from the sidecar files it wrote.
extension CassetteSession {
    /// Scrubs copies of `secrets`, just learned, from the interactions the cassette already holds. Returns whether
    /// any changed (the file must then be written again).
    @discardableResult
    static func scrubStored(_ state: inout State, of secrets: [String], redaction: Redaction) -> Bool {
        guard !secrets.isEmpty else { return false }
        var changed = false
        for index in state.player.cassette.interactions.indices {
            var stored = state.player.cassette.interactions[index]
            if redaction.scrubCopies(in: &stored, of: secrets) {
                state.player.rescrub(index, to: stored)
                changed = true
            }
        }
        return changed
    }

    /// Scrubs the sidecar bodies this session wrote of every secret it learned (a body written before a secret was
    /// learned may hold a copy): each file that changes is written under its new content's name, the interaction
    /// points at it, and the old file goes once nothing refers to it. Returns whether any interaction changed.
    static func scrubSidecars(_ state: inout State, url: URL, redaction: Redaction) throws(CassetteError) -> Bool {
        let secrets = state.secrets.secrets
        guard !secrets.isEmpty, !state.sidecarPositions.isEmpty else { return false }
        var rewrite = SidecarRewrite(cassette: url)
        var interactions = state.player.cassette.interactions
        var positions = Set<Int>()
        for body in SidecarRewrite.bodies(of: state.player.cassette, at: state.sidecarPositions)
        where body.byteCount <= Int64(BodyCapture.redactableLimit) {
            let data = try rewrite.data(of: body)
            if try rewrite.replace(body, original: data, with: redaction.scrubBytes(data, secrets: secrets), in: &interactions) {
                positions.insert(body.index)
            }
        }
        for position in positions.sorted() { state.player.rescrub(position, to: interactions[position]) }
        rewrite.removeReplaced(keepingThoseOf: state.player.cassette.interactions)
        return !positions.isEmpty
    }
}
