import Foundation

/// Redacts a body on its way to a sidecar file as it arrives (``BodyCapture``, past the sidecar threshold), so that what
/// reaches disk, the temporary capture file included, is already redacted and the body is never held whole.
///
/// It applies the rules a body held whole gets (``Redaction/redactBody(_:contentType:scrubbing:)``), in two stages:
/// - a JSON body (its first byte after whitespace is `{` or `[`) goes through ``StreamingJSONRedaction``, which
///   replaces sensitive members and members named by JSON-path filters as it reads them;
/// - then copies of the secrets known so far are scrubbed (the request's and the session's, and those the JSON stage
///   found earlier in the body), and the text is cut into segments that end at a line break (at a `&` for a form),
///   or after at most ``segmentLimit`` bytes when a line is longer; each segment gets the form-field rules and the
///   regular-expression filters.
///
/// What differs from a body held whole: a regular expression matches within a segment (a line, in practice) and runs
/// after the scrub, and a secret is scrubbed only once it is known (a copy of a sensitive member's value that comes
/// before the member stays). Copies of a secret are found across chunk boundaries: the last bytes received, as many as
/// the longest spelling of a known secret, wait for the next chunk. Text that is not UTF-8 passes unchanged, as a
/// binary body held whole does.
struct BodyRedactionStream: Sendable {
    /// The longest segment the text stage redacts at once.
    static let segmentLimit = 1 << 20

    private let redaction: Redaction
    private let isForm: Bool
    /// The secrets known so far, indexed for one scan per segment.
    private var secrets = SecretOccurrences()
    /// Bytes kept back at the end of the pending text: a copy of a secret cut there is whole with the next chunk.
    private var holdBack = 1
    private var json: StreamingJSONRedaction?
    /// Whether the JSON stage was chosen or ruled out (at the first byte that is not whitespace).
    private var decided = false
    /// Text not yet redacted: the start of a segment.
    private var pending: [UInt8] = []
    private let noteSecrets: @Sendable ([String]) -> Void
    private let whenFinished: (@Sendable (SecretOccurrences) -> Void)?

    /// A stream for a body of `contentType`, scrubbing `secrets` from it (a session's index, shared until the stream
    /// adds one); `noteSecrets` hears of the secrets found in it (values of sensitive members), so that the rest of
    /// the cassette is scrubbed of them too, and `whenFinished` gets the index the stream ends with, the body's
    /// secrets added.
    init(redaction: Redaction, contentType: String?, secrets: SecretOccurrences,
         noteSecrets: @escaping @Sendable ([String]) -> Void = { _ in }, whenFinished: (@Sendable (SecretOccurrences) -> Void)? = nil) {
        self.redaction = redaction
        self.isForm = contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        self.noteSecrets = noteSecrets
        self.whenFinished = whenFinished
        self.secrets = secrets
        holdBack = secrets.longestSpelling + 1
    }

    /// A stream that only scrubs copies of `secrets` (a session's ledger), spelled as `redaction` spells them (its
    /// stand-ins), for a body already redacted that a secret learned later may still be in.
    init(scrubbing secrets: SecretOccurrences, as redaction: Redaction) {
        var scrubOnly = redaction
        scrubOnly.redactsDefaults = false
        scrubOnly.filters = []
        self.init(redaction: scrubOnly, contentType: nil, secrets: secrets)
    }

    /// The redacted bytes that can be written after `chunk`: some of its bytes may come out with a later chunk.
    mutating func feed(_ chunk: Data) -> Data {
        guard !chunk.isEmpty else { return Data() }
        decide(chunk)
        jsonStage(chunk)
        guard pending.count >= Self.segmentLimit + holdBack else { return Data() }
        return redactSegments(final: false)
    }

    /// The rest of the body, redacted.
    mutating func finish() -> Data {
        if var stage = json {
            json = nil
            stage.finish(into: &pending)
            json = stage
            learn(stage.takeFoundSecrets())
        }
        let rest = redactSegments(final: true)
        whenFinished?(secrets)
        return rest
    }

    private mutating func decide(_ chunk: Data) {
        guard !decided else { return }
        guard let first = chunk.first(where: { !(0x20 == $0 || 0x0A == $0 || 0x0D == $0 || 0x09 == $0) }) else { return }
        decided = true
        if (first == UInt8(ascii: "{") || first == UInt8(ascii: "[")) && (redaction.redactsDefaults || redaction.hasJSONPathFilters) {
            json = StreamingJSONRedaction(redaction: redaction)
        }
    }

    /// Appends `chunk` to the pending text, through the JSON stage when there is one.
    private mutating func jsonStage(_ chunk: Data) {
        guard var stage = json else { return pending.append(contentsOf: chunk) }
        json = nil  // taken out while it works, so that its storage is not copied on write
        stage.feed(chunk, into: &pending)
        learn(stage.takeFoundSecrets())
        json = stage
    }

    private mutating func learn(_ found: [String]) {
        guard !found.isEmpty else { return }
        add(found)
        noteSecrets(found)
    }

    /// Adds secrets to scrub, and holds back as many bytes as the longest spelling
    /// ``Redaction/scrub(_:secrets:placeholder:)`` replaces, plus one.
    private mutating func add(_ newSecrets: [String]) {
        secrets.add(newSecrets)
        holdBack = secrets.longestSpelling + 1
    }

    /// Redacts the pending text: all of it when `final`, else whole segments up to the held-back tail. Copies of
    /// secrets are scrubbed from all of it first, so that one cut at a segment's end is replaced whole.
    private mutating func redactSegments(final: Bool) -> Data {
        scrubPending()
        guard isForm || redaction.hasRegexFilters else {
            // No rule works on segments: all but the held-back tail goes out at once.
            let end = final ? pending.count : Self.utf8Boundary(pending, before: pending.count - holdBack)
            defer { pending.removeFirst(end) }
            return Data(pending[..<end])
        }
        var output = Data()
        let separator = isForm ? UInt8(ascii: "&") : UInt8(ascii: "\n")
        while !pending.isEmpty, final || pending.count >= Self.segmentLimit + holdBack {
            let limit = final ? pending.count : Self.utf8Boundary(pending, before: pending.count - holdBack)
            var end = limit
            if end > Self.segmentLimit {
                let window = pending[..<Self.segmentLimit]
                end = window.lastIndex(of: separator).map { $0 + 1 } ?? Self.utf8Boundary(pending, before: Self.segmentLimit)
            }
            if end == 0 { end = limit }
            output.append(redactSegment(pending[..<end]))
            pending.removeFirst(end)
        }
        return output
    }

    /// Replaces every whole copy of a known secret in the pending text (up to its last whole UTF-8 character); a copy
    /// still being received stays for the next call. Pending bytes that are not UTF-8 text are left as they are.
    private mutating func scrubPending() {
        guard !secrets.isEmpty else { return }
        let boundary = Self.utf8Boundary(pending, before: pending.count)
        let present = pending.withUnsafeBufferPointer { secrets.present(in: UnsafeBufferPointer(rebasing: $0[..<boundary])) }
        guard !present.isEmpty, let text = String(validating: pending[..<boundary], as: UTF8.self) else { return }
        let scrubbed = redaction.scrub(text, secrets: Redaction.ordered(present))
        guard scrubbed != text else { return }
        pending = Array(scrubbed.utf8) + pending[boundary...]
    }

    /// One segment with the form-field rules (a form) and the regular-expression filters applied.
    private func redactSegment(_ segment: ArraySlice<UInt8>) -> Data {
        guard isForm || redaction.hasRegexFilters, var text = String(validating: segment, as: UTF8.self) else { return Data(segment) }
        if isForm { text = redaction.redactPairs(text) }
        return Data(redaction.applyRegexes(text).utf8)
    }

    /// The largest index at or before `index` that does not split a UTF-8 sequence: at the end of `bytes`, the start
    /// of a last character still missing bytes.
    private static func utf8Boundary(_ bytes: [UInt8], before index: Int) -> Int {
        let index = max(0, min(index, bytes.count))
        var lead = index == bytes.count ? index - 1 : index
        while lead > 0, lead > index - 4, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        guard lead >= 0, lead < bytes.count else { return index }
        if index < bytes.count { return bytes[lead] & 0xC0 == 0x80 ? index : lead }
        let length = bytes[lead] < 0x80 ? 1 : bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : bytes[lead] >= 0xC0 ? 2 : 1
        return lead + length > bytes.count ? lead : index
    }
}
