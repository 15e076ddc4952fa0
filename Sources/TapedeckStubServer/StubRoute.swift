import Foundation
import Synchronization
import TapedeckCore

/// A route: requests with this method (or any, when `nil`) and this path get the responder's answer.
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
        if let method, method != request.method { return false }
        return Self.path(request.path, matches: path) || Self.path(request.decodedPath, matches: path)
    }

    /// Whether `path` fits `template`, where `{name}` segments match any one non-empty segment.
    static func path(_ path: String, matches template: String) -> Bool {
        if path == template { return true }
        guard template.contains("{") || template.hasSuffix("/**") else { return false }
        var pathSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        var templateSegments = template.split(separator: "/", omittingEmptySubsequences: false)
        if templateSegments.last == "**" {
            templateSegments.removeLast()
            guard pathSegments.count >= templateSegments.count else { return false }
            pathSegments = Array(pathSegments.prefix(templateSegments.count))
        }
        guard pathSegments.count == templateSegments.count else { return false }
        return zip(pathSegments, templateSegments).allSatisfy { segment, pattern in
            if pattern.hasPrefix("{") && pattern.hasSuffix("}") { return !segment.isEmpty }
            return segment == pattern
        }
    }

    var summary: String { "\(method?.rawValue ?? "ANY") \(path)" }
}

/// The server's routes. The most recently added route that matches wins, so a test can override a default.
final class RouteTable: Sendable {
    private let routes = Mutex<[StubRoute]>([])

    func add(_ route: StubRoute) {
        routes.withLock { $0.append(route) }
    }

    func removeAll() {
        routes.withLock { $0.removeAll() }
    }

    var all: [StubRoute] { routes.withLock { $0 } }

    /// The answer for `request`: the winning route's, or a 404 that lists what is configured.
    func response(for request: RecordedRequest) -> StubResponse {
        let current = all
        if let route = current.last(where: { $0.matches(request) }) {
            return route.responder(request)
        }
        var text = "No stub matches \(request.method) \(request.path)\n"
        if current.isEmpty {
            text += "The server has no routes.\n"
        } else {
            text += "Routes:\n" + current.map { "  \($0.summary)\n" }.joined()
        }
        return StubResponse(status: 404, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .data(Data(text.utf8)))
    }
}
