import Foundation

/// What ``Redaction/redactFile(at:writing:)`` changed in a cassette file.
public struct CassetteFileRedaction: Sendable {
    /// A sidecar body whose bytes redaction changed: it now lives in a new file named by its new content.
    public struct SidecarChange: Hashable, Sendable {
        /// `interactions[3].response.body`
        public var place: String
        /// The sidecar path before and after (relative to the cassette's folder).
        public var from: String
        /// The sidecar path after redaction, named by the redacted bytes (relative to the cassette's folder).
        public var to: String
    }

    /// The cassette as it was read.
    public var original: Cassette
    /// The cassette with every rule applied, inline bodies and sidecar references included.
    public var redacted: Cassette
    /// The sidecar bodies that changed, in cassette order.
    public var sidecars: [SidecarChange]

    /// Whether anything changed.
    public var changed: Bool { original != redacted }
}

extension Redaction {
    /// Applies the rules to a cassette file in place, sidecar bodies included: secrets found anywhere (inline parts
    /// and sidecar JSON or form bodies) are redacted where a rule finds them and scrubbed from every other part, as
    /// ``redact(_:)-(Cassette)`` does for a cassette in memory. A sidecar whose bytes change is written anew under the
    /// name of its new content, the cassette is saved atomically, and then the old sidecar files that nothing
    /// references any more are removed; so an interrupted run leaves either the old cassette with its old sidecars or
    /// the new one with its new sidecars, never a cassette pointing at a missing file. With `writing: false` nothing
    /// is written (a dry run).
    ///
    /// ```swift
    /// let result = try Redaction.default.redactFile(at: URL(fileURLWithPath: "Cassettes/users.json"))
    /// for change in result.sidecars { print("redacted \(change.place) (sidecar \(change.to))") }
    /// ```
    ///
    /// - Throws: ``CassetteError`` when the cassette or a sidecar cannot be read or written, and
    ///   ``CassetteError/redactionGaveUp(file:place:problems:)`` (before anything is written) when a regular-expression
    ///   filter gave up on a part.
    public func redactFile(at url: URL, writing: Bool = true) throws(CassetteError) -> CassetteFileRedaction {
        let original = try CassetteFile.load(url)
        var cassette = original
        // Secrets become stand-ins under the cassette's salt, or under a new one kept only if something changes.
        let redaction = standingIn(original.redactionSalt ?? .random())
        var rewrite = SidecarRewrite(cassette: url)
        var sidecars: [(body: SidecarRewrite.Body, data: Data)] = []
        for body in SidecarRewrite.bodies(of: original) { sidecars.append((body, try rewrite.data(of: body))) }

        var ledger = SecretLedger()
        _ = ledger.learn(secrets(in: cassette))
        for (body, data) in sidecars { _ = ledger.learn(secretValues(ofBody: data, contentType: body.contentType)) }
        for index in cassette.interactions.indices {
            _ = try Self.refusingGiveUps(file: url.path, place: "interactions[\(index)]") {
                redaction.redact(&cassette.interactions[index], ledger: &ledger)
            }
        }
        for (body, data) in sidecars {
            let redacted = try Self.refusingGiveUps(file: url.path, place: body.place) {
                redaction.scrubBytes(redaction.redactBodyBytes(data, contentType: body.contentType), secrets: ledger.index)
            }
            _ = try rewrite.replace(body, original: data, with: redacted, in: &cassette.interactions, writing: writing)
        }

        if cassette.interactions != original.interactions { cassette.redactionSalt = redaction.standInSalt }
        let result = CassetteFileRedaction(original: original, redacted: cassette,
                                           sidecars: rewrite.replaced.map { .init(place: $0.place, from: $0.from, to: $0.to) })
        guard writing, result.changed else { return result }
        try CassetteFile.save(cassette, to: url)
        rewrite.removeReplaced(keepingThoseOf: cassette.interactions)
        return result
    }
}
