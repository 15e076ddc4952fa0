import Foundation
import TapedeckCore

/// A route: requests with this method (or any, when `nil`) and this path get the responder's answer. A route is
/// sugar for a ``Stub`` with the default priority whose matcher checks only the method and path (see
/// ``PathPattern/inferred(_:)`` for how the path is read).
///
/// The path is matched segment by segment; a segment written `{name}` matches any one non-empty segment:
/// `/bytes/{n}` matches `/bytes/1024` but not `/bytes` or `/bytes/1/2`. A final `**` matches the rest of the path,
/// however many segments (none included): `/anything/**` matches `/anything` and `/anything/a/b`.
public struct StubRoute: Sendable {
    /// The method to match, or `nil` for any.
    public var method: HTTPMethod?
    /// The path (or path template) to match, against the request's path both as sent and percent-decoded.
    public var path: String
    /// Builds the answer from the request.
    public var responder: @Sendable (RecordedRequest) -> StubResponse

    /// Creates a route.
    public init(method: HTTPMethod?, path: String, responder: @escaping @Sendable (RecordedRequest) -> StubResponse) {
        self.method = method
        self.path = path
        self.responder = responder
    }

    /// Whether this route answers `request`.
    public func matches(_ request: RecordedRequest) -> Bool {
        matcher.matches(request)
    }

    /// The route's method and path as a matcher.
    public var matcher: RequestPattern { RequestPattern(method, .inferred(path)) }

    /// The route as a stub.
    public var stub: Stub { Stub(matcher, handler: responder) }

    /// Whether `path` fits `template`, where `{name}` segments match any one non-empty segment.
    static func path(_ path: String, matches template: String) -> Bool {
        PathPattern.parameters(in: path, template: template) != nil
    }
}
