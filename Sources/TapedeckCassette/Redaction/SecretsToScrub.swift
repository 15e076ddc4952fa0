/// Secrets whose copies ``Redaction/scrub(_:secrets:placeholder:)`` replaces: a list, longest first, checked secret by
/// secret (a few secrets, the common case), or a ``SecretOccurrences`` index that finds those a text holds in one scan
/// whatever their number (a cassette that learned a token from every record of an export).
protocol SecretsToScrub: Sendable {
    var isEmpty: Bool { get }
    /// The secrets that may occur in `text`, longest first (a secret containing another is replaced whole).
    func candidates(in text: String) -> [String]
}

extension Array: SecretsToScrub where Element == String {
    /// The list itself; a long list in a long text is narrowed by one indexed scan first.
    func candidates(in text: String) -> [String] {
        let indexed = count > Redaction.secretsCheckedOneByOne && text.utf8.count > Redaction.textScannedPerSecret
        return indexed ? SecretOccurrences(self).present(in: text) : self
    }
}

extension SecretOccurrences: SecretsToScrub {
    func candidates(in text: String) -> [String] {
        present(in: text).sorted(by: Redaction.comesFirst)
    }
}

/// An index and a few secrets more (a body's own), scrubbed together, longest first across both, without copying the
/// index to add them.
struct IndexAndList: SecretsToScrub {
    let index: SecretOccurrences
    let list: [String]

    var isEmpty: Bool { index.isEmpty && list.isEmpty }

    func candidates(in text: String) -> [String] {
        let indexed = index.present(in: text)
        return indexed.isEmpty ? list.candidates(in: text) : Redaction.ordered(indexed + list.candidates(in: text))
    }
}
