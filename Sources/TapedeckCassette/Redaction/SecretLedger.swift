/// The secret values learned from the interactions of one cassette so far, so that a secret found in one
/// interaction is scrubbed from every other, whichever was recorded first. They are held indexed
/// (``SecretOccurrences``): scrubbing a text of them costs one scan of the text, however many were learned.
struct SecretLedger: Sendable {
    /// Every secret learned, indexed; pass it where secrets are scrubbed.
    private(set) var index = SecretOccurrences()

    /// Every secret learned, longest first (a secret containing another is replaced whole).
    var secrets: [String] { index.secrets.sorted(by: Redaction.comesFirst) }

    var isEmpty: Bool { index.isEmpty }

    /// Adds `values`; returns those it did not hold before.
    mutating func learn(_ values: [String]) -> [String] {
        index.add(values)
    }
}
