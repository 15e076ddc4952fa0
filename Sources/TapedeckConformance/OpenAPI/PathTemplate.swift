import Foundation

/// An OpenAPI path template such as `/pets/{petId}/photos/{file}.jpg`, matched segment by segment against a
/// request's percent-encoded path. A segment holds literal text and at most one `{parameter}` with literal text
/// around it; parameter values come back percent-decoded.
struct PathTemplate: Sendable {
    /// One `/`-separated piece of the template.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(name: String, prefix: String, suffix: String)
    }

    let text: String
    let segments: [Segment]

    /// How specific the template is, for choosing between several that match: more literal segments win, so
    /// `/pets/mine` is preferred to `/pets/{petId}`.
    var literalCount: Int {
        segments.reduce(0) { count, segment in
            if case .literal = segment { return count + 1 }
            return count
        }
    }

    init(_ text: String) {
        self.text = text
        segments = Self.pieces(of: text).map { piece in
            guard let open = piece.firstIndex(of: "{"), let close = piece[open...].firstIndex(of: "}") else {
                return .literal(piece)
            }
            return .parameter(name: String(piece[piece.index(after: open)..<close]), prefix: String(piece[..<open]),
                              suffix: String(piece[piece.index(after: close)...]))
        }
    }

    /// The parameter values when `path` (percent-encoded, without query) matches, else `nil`.
    func match(_ path: String) -> [String: String]? {
        match(pieces: Self.pieces(of: path))
    }

    /// The parameter values when a path split by ``pieces(of:)`` matches, else `nil`.
    func match(pieces: [String]) -> [String: String]? {
        guard pieces.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, piece) in zip(segments, pieces) {
            switch segment {
            case .literal(let literal):
                guard literal == piece || (piece.utf8.contains(UInt8(ascii: "%")) && literal == piece.removingPercentEncoding) else { return nil }
            case .parameter(let name, let prefix, let suffix):
                guard piece.count >= prefix.count + suffix.count, piece.hasPrefix(prefix), piece.hasSuffix(suffix) else { return nil }
                let value = piece.dropFirst(prefix.count).dropLast(suffix.count)
                guard !value.isEmpty else { return nil }
                values[name] = value.utf8.contains(UInt8(ascii: "%")) ? String(value).removingPercentEncoding ?? String(value) : String(value)
            }
        }
        return values
    }

    /// The `/`-separated pieces after the leading slash; a trailing slash counts as an empty last piece.
    static func pieces(of path: String) -> [String] {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }
}
