import Foundation

/// What ``Redaction/redactFile(at:writing:)`` changed in a cassette file.
public struct CassetteFileRedaction: Sendable {
    /// A sidecar body whose bytes redaction changed: it now lives in a new file named by its new content.
    public struct SidecarChange: Hashable, Sendable {
        /// `interactions[3].response.body`
        public var place: String
        /// The sidecar path before and after (relative to the cassette's folder).
        public var from: String
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
    /// - Throws: ``CassetteError`` when the cassette or a sidecar cannot be read or written.
    public func redactFile(at url: URL, writing: Bool = true) throws(CassetteError) -> CassetteFileRedaction {
        let original = try CassetteFile.load(url)
        var cassette = original
        let sidecars = try sidecarBodies(of: original, at: url)

        var ledger = SecretLedger()
        _ = ledger.learn(secrets(in: cassette))
        for body in sidecars { _ = ledger.learn(secretValues(ofBody: body.data, contentType: body.contentType)) }
        for index in cassette.interactions.indices { _ = redact(&cassette.interactions[index], ledger: &ledger) }

        var changes: [CassetteFileRedaction.SidecarChange] = []
        for body in sidecars {
            let redacted = redactBody(body.data, contentType: body.contentType, scrubbing: ledger.secrets)
            guard redacted != body.data else { continue }
            let name = CassetteFile.sidecarFolder(url) + "/" + ContentHash.of(redacted) + ".bin"
            if writing { try AtomicFile.write(redacted, to: CassetteFile.sidecarURL(name, cassette: url)) }
            body.replace(in: &cassette, with: CassetteBody(sidecar: name, byteCount: Int64(redacted.count),
                                                           contentEncoding: body.contentEncoding))
            changes.append(.init(place: body.place, from: body.path, to: name))
        }
        let result = CassetteFileRedaction(original: original, redacted: cassette, sidecars: changes)
        guard writing, result.changed else { return result }
        try CassetteFile.save(cassette, to: url)
        let stillUsed = Set(try sidecarBodies(of: cassette, at: url, reading: false).map(\.path))
        for change in changes where !stillUsed.contains(change.from) {
            try? FileManager.default.removeItem(at: CassetteFile.sidecarURL(change.from, cassette: url))
        }
        return result
    }

    /// A body kept in a sidecar file, with where it sits in the cassette.
    private struct SidecarBody {
        let index: Int
        let isRequest: Bool
        let path: String
        let contentType: String?
        let contentEncoding: String?
        let data: Data

        var place: String { "interactions[\(index)].\(isRequest ? "request" : "response").body" }

        func replace(in cassette: inout Cassette, with body: CassetteBody) {
            if isRequest {
                cassette.interactions[index].request.body = body
            } else if case .response(var response) = cassette.interactions[index].outcome {
                response.body = body
                cassette.interactions[index].outcome = .response(response)
            }
        }
    }

    /// Every sidecar body of `cassette`, read from beside `url` (or with empty bytes when `reading` is false).
    private func sidecarBodies(of cassette: Cassette, at url: URL, reading: Bool = true) throws(CassetteError) -> [SidecarBody] {
        var bodies: [SidecarBody] = []
        for (index, interaction) in cassette.interactions.enumerated() {
            var parts: [(isRequest: Bool, body: CassetteBody, contentType: String?)] = [
                (true, interaction.request.body, interaction.request.headers["Content-Type"]),
            ]
            if let response = interaction.response { parts.append((false, response.body, response.headers["Content-Type"])) }
            for (isRequest, body, contentType) in parts {
                guard case .sidecar(let path, _) = body.storage else { continue }
                bodies.append(SidecarBody(index: index, isRequest: isRequest, path: path, contentType: contentType,
                                          contentEncoding: body.contentEncoding,
                                          data: reading ? try CassetteFile.bodyData(body, cassette: url) : Data()))
            }
        }
        return bodies
    }
}
