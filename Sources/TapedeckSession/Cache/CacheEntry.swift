import Foundation

/// A cache's primary key (RFC 9111 §2): the request method and the target URL without its fragment.
struct CacheKey: Hashable, Sendable {
    let method: String
    let url: String

    init(method: HTTPMethod, url: URL) {
        self.method = method.rawValue
        let text = url.absoluteString
        // The fragment is never sent, so it never tells stored responses apart. (Scanned in place: this runs on
        // every lookup.)
        let hasFragment = text.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "#")) }
            ?? text.utf8.contains(UInt8(ascii: "#"))
        if hasFragment, let hash = text.firstIndex(of: "#") {
            self.url = String(text[..<hash])
        } else {
            self.url = text
        }
    }

    /// The key as one string, e.g. `GET http://example.com/a`: what the disk store hashes and keeps in the file.
    var text: String { "\(method) \(url)" }
}

/// A stored response with what answering from it needs, computed once: the freshness inputs, the `Vary` field names
/// and the response a hit returns. Immutable, so the stores share it by reference.
final class CacheEntry: Sendable {
    let response: CachedResponse
    let freshness: Freshness
    /// Lowercased names from `Vary`; empty when the response does not vary.
    let varyNames: [String]
    /// Bytes it is counted as in a store's capacity.
    let cost: Int
    /// What a hit returns, before its `Age` header is added.
    let served: HTTPResponse

    /// The entry for `response`, or `nil` when its `Vary` is `*` (it could never be used).
    init?(_ response: CachedResponse) {
        guard let varyNames = CacheRules.varyNames(response.headers) else { return nil }
        self.response = response
        self.varyNames = varyNames
        freshness = Freshness(response, directives: CacheControl(response.headers))
        var served = response.httpResponse
        served.head.headers.remove(name: "Age")
        self.served = served
        cost = CacheEntry.cost(of: response)
    }

    /// Whether `request` selects this stored response by its `Vary` fields.
    @inline(__always)
    func matches(_ request: HTTPHeaders) -> Bool {
        varyNames.isEmpty || CacheRules.varyMatches(request, response.varyingRequestHeaders, varyNames: varyNames)
    }

    /// The served response with `Age` set to `age` (RFC 9111 §5.1: whole seconds, replacing any stored `Age`).
    func hitResponse(age: TimeInterval) -> HTTPResponse {
        var response = served
        response.head.headers.add(name: "Age", value: String(Int(min(max(0, age), 2_147_483_648))))
        return response
    }

    private static func cost(of response: CachedResponse) -> Int {
        let fields = response.headers.fields + response.varyingRequestHeaders.fields
        return 128 + response.body.count + response.url.absoluteString.utf8.count + response.reasonPhrase.utf8.count
            + fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }
}
