/// The secret values learned from the interactions of one cassette so far, so that a secret found in one
/// interaction is scrubbed from every other, whichever was recorded first.
struct SecretLedger: Sendable {
    /// Every secret learned, longest first (a secret containing another is replaced whole).
    private(set) var secrets: [String] = []
    private var known: Set<String> = []

    /// Adds `values`; returns those it did not hold before.
    mutating func learn(_ values: [String]) -> [String] {
        let new = values.filter { known.insert($0).inserted }
        if !new.isEmpty { secrets = Redaction.ordered(secrets + new) }
        return new
    }
}
