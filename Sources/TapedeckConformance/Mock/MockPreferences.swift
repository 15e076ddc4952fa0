import Foundation

/// What a request asks of a mock beyond the document: the `Prefer` header (`code=404`, `example=notFound`, as Prism
/// reads it) and the media ranges of `Accept`. Pure logic.
struct MockPreferences: Equatable {
    /// The status the client wants, when documented.
    var code: Int?
    /// The name of the documented example the client wants.
    var example: String?
    /// `Accept`'s media ranges, most preferred first (`q=0` ranges left out); empty when any type will do.
    var accepted: [String] = []

    /// Reads `Prefer` and `Accept` values (`nil` when absent).
    init(prefer: String?, accept: String?) {
        for item in (prefer ?? "").split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            switch pair[0].lowercased() {
            case "code": code = Int(value)
            case "example": example = value
            default: continue
            }
        }
        accepted = Self.mediaRanges(accept)
    }

    /// `text/html;q=0.5, application/json` → `["application/json", "text/html"]`: lowercased, without parameters,
    /// stably ordered by quality.
    static func mediaRanges(_ accept: String?) -> [String] {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var ranges: [(range: String, quality: Double, position: Int)] = []
        for (position, item) in accept.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 1
            }
            if quality > 0 { ranges.append((range, quality, position)) }
        }
        return ranges.sorted { ($0.quality, -$0.position) > ($1.quality, -$1.position) }.map(\.range)
    }

    /// Whether the media range `range` (`*/*`, `image/*`, `image/png`) covers the media type or range `type`.
    static func range(_ range: String, covers type: String) -> Bool {
        if range == "*/*" || range == type { return true }
        guard range.hasSuffix("/*") else { return false }
        return type.hasPrefix(range.dropLast())
    }
}
