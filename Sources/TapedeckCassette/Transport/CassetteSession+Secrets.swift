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
        var replaced: Set<String> = []
        func scrubbed(_ body: CassetteBody) throws(CassetteError) -> CassetteBody? {
            guard let path = body.sidecarPath, body.byteCount <= Int64(BodyCapture.redactableLimit) else { return nil }
            let data = try CassetteFile.bodyData(body, cassette: url)
            let clean = redaction.scrubBytes(data, secrets: secrets)
            guard clean != data else { return nil }
            let name = CassetteFile.sidecarFolder(url) + "/" + ContentHash.of(clean) + ".bin"
            try AtomicFile.write(clean, to: CassetteFile.sidecarURL(name, cassette: url))
            replaced.insert(path)
            return CassetteBody(sidecar: name, byteCount: Int64(clean.count), contentEncoding: body.contentEncoding)
        }
        var changed = false
        for position in state.sidecarPositions where state.player.cassette.interactions.indices.contains(position) {
            var interaction = state.player.cassette.interactions[position]
            let before = interaction
            if let body = try scrubbed(interaction.request.body) { interaction.request.body = body }
            if case .response(var response) = interaction.outcome, let body = try scrubbed(response.body) {
                response.body = body
                interaction.outcome = .response(response)
            }
            if interaction != before {
                state.player.rescrub(position, to: interaction)
                changed = true
            }
        }
        let stillUsed = Set(state.player.cassette.interactions.flatMap { [$0.request.body.sidecarPath, $0.response?.body.sidecarPath].compactMap { $0 } })
        CassettePruning.removeSidecars(replaced.subtracting(stillUsed), cassette: url)
        return changed
    }
}
