/// Where an interaction stands among the interactions of its cassette that share its request, `METHOD /path?query`:
/// the `position`th of `total`. Exports to tools that answer one request with a sequence (WireMock scenarios, Pact
/// interaction names) number repeated requests with it.
///
/// ```swift
/// for (interaction, place) in zip(cassette.interactions, RequestPlace.places(in: cassette)) {
///     print(interaction.request.url, place.suffix)   // "… (2 of 3)" for the second of three alike
/// }
/// ```
package struct RequestPlace: Hashable, Sendable {
    /// `METHOD /path?query`, the request the place counts among.
    package var key: String
    /// 1 for the first interaction with this key.
    package var position: Int
    /// How many interactions of the cassette have this key.
    package var total: Int

    /// ` (2 of 3)` for a repeated request, empty for one made once: what tells repeated requests' names apart.
    package var suffix: String { total > 1 ? " (\(position) of \(total))" : "" }

    /// `METHOD /path?query` of `request` (method upper-cased, fragment left out).
    package static func key(_ request: Interaction.Request) -> String {
        "\(request.method.uppercased()) \(URLParts(request.url).pathAndQuery)"
    }

    /// The place of each interaction of `cassette`, in order.
    package static func places(in cassette: Cassette) -> [RequestPlace] {
        let keys = cassette.interactions.map { key($0.request) }
        var totals: [String: Int] = [:]
        for key in keys { totals[key, default: 0] += 1 }
        var seen: [String: Int] = [:]
        return keys.map { key in
            seen[key, default: 0] += 1
            return RequestPlace(key: key, position: seen[key]!, total: totals[key]!)
        }
    }

    /// Header names that frame the recorded message on its connection rather than say anything about it
    /// (`Content-Length`, `Transfer-Encoding`, `Connection`, `Keep-Alive`), lower-cased: the replaying tool sets
    /// them itself, so exports leave them out.
    package static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]
}
