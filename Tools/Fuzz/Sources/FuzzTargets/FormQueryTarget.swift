import Foundation
@testable import TapedeckCassette
import TapedeckCore
@testable import TapedeckStubServer

/// The query and form parsers: `URLEncodedForm` (form bodies, query values), the cassette matcher's `URLParts`
/// (split, normalization, decoded query pairs) and the stub server's request-target split. Normalizing is checked
/// to be idempotent, since the matcher compares normalized URLs.
enum FormQueryTarget {
    static let target = FuzzTarget(
        name: "form-query",
        summary: "URLEncodedForm.pairs, URLParts (normalization is idempotent), IncomingRequest.split"
    ) { data in
        _ = URLEncodedForm.pairs(data)
        let text = String(decoding: data, as: UTF8.self)
        let parts = URLParts(text)
        _ = parts.decodedQueryPairs
        let normalized = parts.normalized(original: text)
        FuzzCheck.require(URLParts(normalized).normalized(original: normalized) == normalized,
                          "normalizing \(text.debugDescription) twice differs from once: \(normalized.debugDescription)")
        let (path, query) = IncomingRequest.split(target: text)
        FuzzCheck.require(!path.contains("?") && !path.contains("#"), "split left a query or fragment in the path \(path)")
        _ = query.map { URLEncodedForm.pairs(Data($0.utf8)) }
    }
}
