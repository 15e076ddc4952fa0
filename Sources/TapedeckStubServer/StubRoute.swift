import Foundation
import Synchronization
import TapedeckCore

/// A route: requests with this method (or any, when `nil`) and exactly this path get the responder's answer.
public struct StubRoute: Sendable {
    /// The method to match, or `nil` for any.
    public var method: HTTPMethod?
    /// The path to match, compared with the request's path both as sent and percent-decoded.
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
        return path == request.path || path == request.decodedPath
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
