import Foundation
import TapedeckCore

/// Which requests a stub answers or a verification counts: every condition given must hold.
///
/// Header names compare case-insensitively; a query, header or cookie condition holds when any value of that name
/// satisfies it (``ValuePattern/absent`` when there is none). ``url`` is a condition on the request target as sent,
/// path and query together (`/users?page=1`), for matchers that cannot split the two (WireMock's `url` and
/// `urlPattern`).
///
/// ```swift
/// let pattern = RequestPattern(.post, "/users/{id}")
///     .query("dryRun", .absent)
///     .header("Content-Type", .contains("json"))
///     .body(.jsonPartial(["name": "Ada"]))
/// ```
public struct RequestPattern: Sendable, Hashable, CustomStringConvertible {
    /// The method, or `nil` for any.
    public var method: HTTPMethod?
    /// The path, or `nil` for any.
    public var path: PathPattern?
    /// Conditions on decoded query parameters, by name.
    public var query: [String: ValuePattern]
    /// Conditions on header fields, by name (case-insensitive).
    public var headers: [String: ValuePattern]
    /// A condition on the body.
    public var body: BodyPattern?
    /// A condition on the request target as sent, path and query together (`/users?page=1`; the path alone when the
    /// target has no query), also tried with the path percent-decoded.
    public var url: ValuePattern?
    /// Conditions on the cookies of the `Cookie` header fields, by name.
    public var cookies: [String: ValuePattern]
    /// Conditions on the GraphQL operation the request carries (``graphQL(operation:variables:exactVariables:)``).
    public var graphQL: GraphQLPattern?

    /// Creates a pattern; with no arguments it matches every request.
    public init(
        _ method: HTTPMethod? = nil, _ path: PathPattern? = nil, query: [String: ValuePattern] = [:],
        headers: [String: ValuePattern] = [:], body: BodyPattern? = nil, url: ValuePattern? = nil,
        cookies: [String: ValuePattern] = [:]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.url = url
        self.cookies = cookies
    }

    /// This pattern with a condition on the query parameter `name`.
    public func query(_ name: String, _ pattern: ValuePattern) -> RequestPattern {
        var copy = self
        copy.query[name] = pattern
        return copy
    }

    /// This pattern with a condition on the header field `name`.
    public func header(_ name: String, _ pattern: ValuePattern) -> RequestPattern {
        var copy = self
        copy.headers[name] = pattern
        return copy
    }

    /// This pattern with a condition on the body.
    public func body(_ pattern: BodyPattern) -> RequestPattern {
        var copy = self
        copy.body = pattern
        return copy
    }

    /// One way a request differs from a pattern: `method`, `path`, `query q`, `header Accept` or `body`, and how.
    public typealias Difference = NearMissDifference

    /// Whether `request` satisfies every condition.
    public func matches(_ request: RecordedRequest) -> Bool {
        if let method, method != request.method { return false }
        if let path, !path.matches(path: request.path, decodedPath: request.decodedPath) { return false }
        return differences(request, stopAtFirst: true).isEmpty
    }

    /// Every way `request` differs from this pattern (empty when it matches).
    public func differences(_ request: RecordedRequest) -> [Difference] {
        differences(request, stopAtFirst: false)
    }

    private func differences(_ request: RecordedRequest, stopAtFirst: Bool) -> [Difference] {
        var found: [Difference] = []
        if let method, method != request.method {
            found.append(Difference(field: "method", explanation: "expected \(method), got \(request.method)", weight: Difference.Weight.method))
            if stopAtFirst { return found }
        }
        if let path, !path.matches(path: request.path, decodedPath: request.decodedPath) {
            found.append(Difference(field: "path", explanation: "expected \(path), got \(request.path)"
                                        + path.limitNote(path: request.path, decodedPath: request.decodedPath), weight: Difference.Weight.place))
            if stopAtFirst { return found }
        }
        if let url {
            let query = request.query.map { "?" + $0 } ?? ""
            let decoded = request.decodedPath
            let targets = decoded == request.path ? [request.path + query] : [request.path + query, decoded + query]
            if let explanation = url.difference(values: targets) {
                found.append(Difference(field: "url", explanation: explanation, weight: Difference.Weight.place))
                if stopAtFirst { return found }
            }
        }
        if !query.isEmpty {
            let items = request.queryItems
            for name in query.keys.sorted() {
                let values = items.filter { $0.name == name }.map { $0.value ?? "" }
                if let explanation = query[name]!.difference(values: values) {
                    found.append(Difference(field: "query \(name)", explanation: explanation, weight: Difference.Weight.detail))
                    if stopAtFirst { return found }
                }
            }
        }
        for name in headers.keys.sorted() {
            if let explanation = headers[name]!.difference(values: request.headers.values(for: name)) {
                found.append(Difference(field: "header \(name)", explanation: explanation, weight: Difference.Weight.detail))
                if stopAtFirst { return found }
            }
        }
        if !cookies.isEmpty {
            let jar = Self.cookies(of: request)
            for name in cookies.keys.sorted() {
                if let explanation = cookies[name]!.difference(values: jar.filter { $0.name == name }.map(\.value)) {
                    found.append(Difference(field: "cookie \(name)", explanation: explanation, weight: Difference.Weight.detail))
                    if stopAtFirst { return found }
                }
            }
        }
        if let graphQL, let difference = graphQL.difference(request) {
            // For GraphQL the operation is what the path is elsewhere: every operation is posted to one path.
            found.append(Difference(field: "graphql", explanation: difference.explanation, weight: difference.weight))
            if stopAtFirst { return found }
        }
        if let body, let explanation = body.difference(request) {
            found.append(Difference(field: "body", explanation: explanation, weight: Difference.Weight.detail))
        }
        return found
    }

    /// The cookies of `request`'s `Cookie` header fields (`a=1; b=2`), in order.
    static func cookies(of request: RecordedRequest) -> [(name: String, value: String)] {
        request.headers.values(for: "Cookie").flatMap { field in
            field.split(separator: ";").compactMap { pair -> (name: String, value: String)? in
                let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = pieces[0].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { return nil }
                return (name, pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : "")
            }
        }
    }

    /// A one-line summary such as `POST /users/{id} query dryRun absent, header Content-Type containing "json"`.
    public var description: String {
        var text = "\(method?.rawValue ?? "ANY") \(path?.text ?? "any path")"
        var conditions = url.map { ["url \($0)"] } ?? []
        conditions += query.keys.sorted().map { "query \($0) \(query[$0]!)" }
        conditions += headers.keys.sorted().map { "header \($0) \(headers[$0]!)" }
        conditions += cookies.keys.sorted().map { "cookie \($0) \(cookies[$0]!)" }
        if let graphQL { conditions.append(graphQL.description) }
        if let body { conditions.append(body.description) }
        if !conditions.isEmpty { text += " with " + conditions.joined(separator: ", ") }
        return text
    }
}
