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

    /// Takes `extended` as its index when it is this ledger's index, as it stood with `count` secrets, with more added
    /// (a large body's stream started from a copy of it and learned the body's secrets): the secrets are not indexed
    /// a second time. Returns those it did not hold before, or `nil`, changing nothing, when the ledger learned
    /// something since (`extended` is then not known to hold all it holds).
    mutating func adopt(_ extended: SecretOccurrences, extending count: Int) -> [String]? {
        guard index.secrets.count == count, extended.secrets.count >= count else { return nil }
        let learned = Array(extended.secrets[count...])
        index = extended
        return learned
    }
}
