/// The secret values learned from the interactions of one cassette so far, so that a secret found in one
/// interaction is scrubbed from every other, whichever was recorded first.
struct SecretLedger: Sendable {
    /// Every secret learned, longest first (a secret containing another is replaced whole).
    private(set) var secrets: [String] = []
    private var known: Set<String> = []

    /// Adds `values`; returns those it did not hold before.
    mutating func learn(_ values: [String]) -> [String] {
        let new = values.filter { known.insert($0).inserted }
        guard !new.isEmpty else { return new }
        // Merged into the sorted list in one pass: sorting it all again for each interaction made a cassette's
        // redaction quadratic (times a logarithm) in its number of distinct secrets.
        let incoming = new.sorted(by: Redaction.comesFirst)
        var merged: [String] = []
        merged.reserveCapacity(secrets.count + incoming.count)
        var i = 0, j = 0
        while i < secrets.count, j < incoming.count {
            if Redaction.comesFirst(incoming[j], secrets[i]) { merged.append(incoming[j]); j += 1 } else { merged.append(secrets[i]); i += 1 }
        }
        merged += secrets[i...]
        merged += incoming[j...]
        secrets = merged
        return new
    }
}
