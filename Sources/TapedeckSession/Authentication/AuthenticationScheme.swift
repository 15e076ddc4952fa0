import TapedeckCore

/// An HTTP authentication scheme (`Basic`, `Digest`, `Bearer`, …), compared case-insensitively as RFC 9110 §11.1
/// requires.
///
/// ```swift
/// let scheme = AuthenticationScheme("DIGEST")
/// scheme == .digest  // true
/// ```
public struct AuthenticationScheme: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The scheme's name in lowercase ASCII, e.g. `"digest"`.
    public let name: String

    /// Creates a scheme from its name in any case.
    public init(_ name: String) {
        self.name = name.asciiLowercased
    }

    /// Creates a scheme from a string literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// The name as it is usually written: `Basic`, `Digest`, `Bearer`, `Negotiate`, or the lowercase name.
    public var description: String {
        switch self {
        case .basic: return "Basic"
        case .digest: return "Digest"
        case .bearer: return "Bearer"
        case .negotiate: return "Negotiate"
        default: return name
        }
    }

    /// `Basic` (RFC 7617).
    public static let basic = AuthenticationScheme("basic")
    /// `Digest` (RFC 7616).
    public static let digest = AuthenticationScheme("digest")
    /// `Bearer` (RFC 6750).
    public static let bearer = AuthenticationScheme("bearer")
    /// `Negotiate` (RFC 4559).
    public static let negotiate = AuthenticationScheme("negotiate")
}
