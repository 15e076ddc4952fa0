/// Chooses the documented media range for a body's `Content-Type`, and says whether a body is JSON.
enum MediaTypeMatching {
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
