/// An HTTP request method, compared case-sensitively as RFC 9110 requires.
///
/// ```swift
/// let method: HTTPMethod = .post
/// let custom = HTTPMethod("PROPFIND")
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its wire token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from its wire token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// How messages and reports print it.
    public var description: String { rawValue }

    /// `GET`
    public static let get: HTTPMethod = "GET"
    /// `HEAD`
    public static let head: HTTPMethod = "HEAD"
    /// `POST`
    public static let post: HTTPMethod = "POST"
    /// `PUT`
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`
    public static let connect: HTTPMethod = "CONNECT"
}
