import Foundation

/// The request half of a recording, redacted and spelled out while the request is on the wire, so that committing
/// the interaction once the response is in has only the response half left to do.
struct PreparedRequest: Sendable {
    /// The request as it was sent.
    let original: Interaction.Request
    /// `original` redacted, with copies of its own secrets scrubbed.
    let redacted: Interaction.Request
    /// The secrets `original` carries (``Redaction/secretValues(of:responseHeaders:)``), which the response is
    /// scrubbed of too.
    let secrets: [String]
    /// `redacted` as compact JSON, as a journal line spells it.
    let json: [UInt8]

    init(_ original: Interaction.Request, redaction: Redaction) {
        self.original = original
        secrets = redaction.secretValues(of: original)
        var redacted = original
        redaction.redact(&redacted, secrets: secrets)
        self.redacted = redacted
        var writer = JSONByteWriter(style: .compact, capacity: 512)
        CassetteCodec.write(redacted, to: &writer, level: 0)
        json = writer.output.array
    }
}
