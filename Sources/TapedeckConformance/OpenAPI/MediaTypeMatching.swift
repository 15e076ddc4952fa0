/// Chooses the documented media range for a body's `Content-Type`, and says whether a body is JSON.
enum MediaTypeMatching {
    /// `application/json; charset=utf-8` → `application/json`.
    static func essence(_ contentType: String) -> String {
        let end = contentType.firstIndex(of: ";") ?? contentType.endIndex
        let type = contentType[..<end].drop(while: \.isWhitespace)
        return String(type.prefix(type.lastIndex(where: { !$0.isWhitespace }).map { type.distance(from: type.startIndex, to: $0) + 1 } ?? 0)).lowercased()
    }

    /// The most specific documented range matching `mediaType`: the exact type, then `type/*`, then `*/*`.
    static func rule(for mediaType: String, in rules: [MediaTypeRule]) -> MediaTypeRule? {
        if let exact = rules.first(where: { $0.range == mediaType }) { return exact }
        let major = mediaType.split(separator: "/").first.map(String.init) ?? mediaType
        return rules.first(where: { $0.range == "\(major)/*" }) ?? rules.first(where: { $0.range == "*/*" })
    }

    /// `application/json`, `text/json` and any `+json` suffix.
    static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType == "text/json" || mediaType.hasSuffix("+json")
    }
}

import Foundation
