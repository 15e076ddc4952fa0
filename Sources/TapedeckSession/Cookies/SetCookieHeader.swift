import Foundation
import TapedeckCore

/// One `Set-Cookie` header value parsed by RFC 6265 §5.2, before the storage rules of §5.3 judge it.
///
/// Attributes that §5.2 says to ignore (an `Expires` date that does not parse, a `Max-Age` that is not a number, an
/// empty `Domain`) leave no trace; of the attributes that repeat, the last one counts.
struct SetCookieHeader: Equatable {
    /// What the last `Path` attribute said.
    enum PathAttribute: Equatable {
        /// A path starting with `/`.
        case path(String)
        /// Empty or not starting with `/`: the request's default path applies.
        case invalid
    }

    var name: String
    var value: String
    /// The last `Expires` that parsed.
    var expires: Date?
    /// The last well-formed `Max-Age`, in seconds (saturated to `Int` on overflow).
    var maxAge: Int?
    /// The last non-empty `Domain`, lower case, without its leading dot.
    var domain: String?
    var path: PathAttribute?
    var secure = false
    var httpOnly = false
    var sameSite: String?

    /// The largest name plus value accepted, as in draft-ietf-httpbis-rfc6265bis §5.6.
    static let maximumNameValueLength = 4096

    /// Parses `header`; `nil` when §5.2 ignores the whole header (no `=` in the name-value pair, an empty name),
    /// or when the name or value carries control characters or exceeds ``maximumNameValueLength`` bytes
    /// (rfc6265bis), which would otherwise end up verbatim in a `Cookie` header.
    init?(_ header: String) {
        let parts = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let pair = parts[0]
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = Self.trimmed(pair[..<equals])
        let value = Self.trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= Self.maximumNameValueLength,
              !Self.hasControlCharacter(name), !Self.hasControlCharacter(value)
        else { return nil }
        self.name = String(name)
        self.value = String(value)
        if parts.count > 1 {
            for attribute in parts[1].split(separator: ";", omittingEmptySubsequences: false) {
                apply(attribute)
            }
        }
    }

    private mutating func apply(_ attribute: Substring) {
        let name: Substring
        let value: Substring
        if let equals = attribute.firstIndex(of: "=") {
            name = Self.trimmed(attribute[..<equals])
            value = Self.trimmed(attribute[attribute.index(after: equals)...])
        } else {
            name = Self.trimmed(attribute)
            value = ""
        }
        switch String(name).asciiLowercased {
        case "expires":
            if let date = CookieDate.parse(value) { expires = date }
        case "max-age":
            if let seconds = Self.deltaSeconds(value) { maxAge = seconds }
        case "domain":
            let domain = CookieHost.canonicalDomain(value)
            if !domain.isEmpty { self.domain = domain }
        case "path":
            path = value.utf8.first == UInt8(ascii: "/") ? .path(String(value)) : .invalid
        case "secure":
            secure = true
        case "httponly":
            httpOnly = true
        case "samesite":
            switch String(value).asciiLowercased {
            case "strict": sameSite = "Strict"
            case "lax": sameSite = "Lax"
            case "none": sameSite = "None"
            default: sameSite = String(value)
            }
        default:
            break
        }
    }

    /// §5.2.2: an optional `-` and at least one digit, nothing else; saturates instead of overflowing.
    static func deltaSeconds(_ text: Substring) -> Int? {
        var digits = text.utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        var value = 0
        for digit in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 0x30))
            if overflow1 || overflow2 { value = .max; break }
            value = sum
        }
        return negative ? -value : value
    }

    /// `text` without leading and trailing spaces and horizontal tabs (WSP).
    static func trimmed(_ text: Substring) -> Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isWhitespace($0) }),
              let last = text.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return text[first...last]
    }

    /// Control characters other than horizontal tab (%x00-08, %x0A-1F, %x7F).
    static func hasControlCharacter(_ text: Substring) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }
}
