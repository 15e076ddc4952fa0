import TapedeckCore

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), read from every `Cache-Control` field.
///
/// Directive names are case-insensitive. When a directive repeats, its first value counts. A `max-age` whose value is
/// not a number counts as `0` (the response is stale), as RFC 9111 §4.2.1 allows for a value it cannot use; a
/// number too large for the cache is 2147483648 (§1.2.2).
struct CacheControl: Hashable, Sendable {
    /// `max-age`, seconds.
    var maxAge: Int?
    /// `s-maxage`, seconds (a private cache uses it only to decide storability).
    var sharedMaxAge: Int?
    /// `max-stale` (request): seconds of staleness accepted; `Int.max` when given without a value.
    var maxStale: Int?
    /// `min-fresh` (request), seconds.
    var minFresh: Int?
    var noCache = false
    var noStore = false
    var mustRevalidate = false
    var isPublic = false
    var isPrivate = false
    var onlyIfCached = false

    /// No directives.
    init() {}

    /// The directives of every `Cache-Control` field in `headers`; with none, a request's `Pragma: no-cache` counts
    /// as `no-cache` (RFC 9111 §5.4).
    init(_ headers: HTTPHeaders, readingPragma: Bool = false) {
        var sawCacheControl = false
        for field in headers where field.name.caseInsensitiveEquals("Cache-Control") {
            sawCacheControl = true
            parse(field.value)
        }
        if readingPragma, !sawCacheControl {
            for field in headers where field.name.caseInsensitiveEquals("Pragma") {
                noCache = noCache || CacheControl.listContains(field.value, "no-cache")
            }
        }
    }

    private mutating func parse(_ value: String) {
        for (name, argument) in CacheControl.directives(in: value) {
            switch name {
            case "max-age": if maxAge == nil { maxAge = CacheControl.deltaSeconds(argument) ?? 0 }
            case "s-maxage": if sharedMaxAge == nil { sharedMaxAge = CacheControl.deltaSeconds(argument) ?? 0 }
            case "max-stale":
                if maxStale == nil { maxStale = argument == nil ? Int.max : CacheControl.deltaSeconds(argument) }
            case "min-fresh": if minFresh == nil { minFresh = CacheControl.deltaSeconds(argument) }
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate": mustRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "only-if-cached": onlyIfCached = true
            default: break
            }
        }
    }

    /// `(lowercased name, argument)` pairs of a comma-separated directive list; a quoted argument loses its quotes
    /// and escapes (one without its closing quote runs to the end). Commas inside quotes do not separate
    /// directives. Lenient as caches are: a name is whatever comes before `=`, and what follows a quoted argument up
    /// to the next comma is ignored.
    static func directives(in value: String) -> [(String, String?)] {
        var scanner = HTTPFieldSyntax.Scanner(value)
        var result: [(String, String?)] = []
        let isNotComma = { (byte: UInt8) in byte != UInt8(ascii: ",") }
        while !scanner.isAtEnd {
            let name = HTTPFieldSyntax.trimmingWhitespace(scanner.bytes(while: { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "=") }))
            var argument: String?
            if scanner.skip("=") {
                scanner.skipWhitespace()
                if let quoted = scanner.quotedString(allowingUnterminated: true) {
                    argument = quoted
                    scanner.skip(while: isNotComma)
                } else {
                    argument = String(decoding: HTTPFieldSyntax.trimmingWhitespace(scanner.bytes(while: isNotComma)), as: UTF8.self)
                }
            }
            scanner.skip(",")
            if !name.isEmpty {
                result.append((String(decoding: name.map(\.asciiLowercased), as: UTF8.self), argument))
            }
        }
        return result
    }

    /// Whether a comma-separated list contains `token` (case-insensitive), e.g. `Pragma: no-cache`.
    static func listContains(_ value: String, _ token: String) -> Bool {
        directives(in: value).contains { $0.0 == token }
    }

    /// A delta-seconds value: digits only; `nil` for anything else; clamped to 2147483648 (RFC 9111 §1.2.2).
    static func deltaSeconds(_ text: String?) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 2_147_483_648)
        }
        return value
    }
}
