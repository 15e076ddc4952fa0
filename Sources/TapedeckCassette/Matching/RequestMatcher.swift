import Foundation
import TapedeckCore

/// The hashable part of a request that the indexed rules (method, URL, host, path, query) look at.
struct MatchKey: Hashable, Sendable {
    var method: String
    var target: String
}

/// Applies a list of ``MatchRule``s: computes index keys, compares candidates on the other rules, and describes
/// differences for near-miss reports.
struct RequestMatcher: Sendable {
    let rules: [MatchRule]
    let usesMethod: Bool
    let filters: [MatchRule]
    /// Whether any rule looks at the body (``MatchRule/readsBody``).
    let readsBody: Bool
    /// Whether any rule reads header fields other than `Content-Type` (``MatchRule/readsHeaders``).
    let readsHeaders: Bool
    /// Reads a body's bytes, including sidecar bodies; `nil` when they cannot be read.
    let bodyBytes: @Sendable (CassetteBody) -> Data?
    private let targetKinds: [MatchRule.Kind]
    /// What the `graphQL` rule has read so far.
    private let graphQLReadings = GraphQLReadings()

    init(rules: [MatchRule], bodyBytes: @escaping @Sendable (CassetteBody) -> Data?) {
        self.rules = rules
        self.bodyBytes = bodyBytes
        usesMethod = rules.contains { if case .method = $0.kind { return true } else { return false } }
        filters = rules.filter { !$0.isIndexed }
        readsBody = rules.contains { $0.readsBody }
        readsHeaders = rules.contains { $0.readsHeaders }
        targetKinds = rules.compactMap { rule in
            switch rule.kind {
            case .url, .host, .path, .query: return rule.kind
            default: return nil
            }
        }
    }

    func key(for request: Interaction.Request) -> MatchKey {
        let method = usesMethod ? request.method : ""
        if targetKinds.isEmpty { return MatchKey(method: method, target: "") }
        // A redacted value matches a redacted value, whichever secret its stand-in stood for.
        let url = StandIn.blurred(request.url)
        let parts = URLParts(url)
        if targetKinds.count == 1, case .url = targetKinds[0] {
            return MatchKey(method: method, target: parts.normalized(original: url))
        }
        var pieces: [String] = []
        for kind in targetKinds {
            switch kind {
            case .url: pieces.append(parts.normalized(original: url))
            case .host: pieces.append(parts.normalizedAuthority)
            case .path: pieces.append(parts.path.isEmpty ? "/" : String(parts.path))
            case .query: pieces.append(parts.sortedQuery)
            default: break
            }
        }
        return MatchKey(method: method, target: pieces.joined(separator: "\u{1}"))
    }

    /// Whether `recorded` passes every non-indexed rule for `live`.
    func passesFilters(_ live: Interaction.Request, _ recorded: Interaction.Request) -> Bool {
        let live = Self.blurred(live), recorded = Self.blurred(recorded)
        return filters.allSatisfy { difference(for: $0, live, recorded) == nil }
    }

    /// The differences between `live` and `recorded` under every rule, one line each; empty when they match.
    func differences(_ live: Interaction.Request, _ recorded: Interaction.Request) -> [String] {
        let live = Self.blurred(live), recorded = Self.blurred(recorded)
        return rules.compactMap { difference(for: $0, live, recorded) }
    }

    /// `METHOD URL` for reports, followed by the GraphQL operation(s) when a `graphQL` rule reads the request:
    /// `POST http://127.0.0.1/graphql (query Hero)`.
    func label(_ request: Interaction.Request) -> String {
        guard rules.contains(where: { if case .graphQL = $0.kind { true } else { false } }),
              let body = bodyBytes(request.body),
              let operation = try? GraphQLRequest.read(request, body: body)
        else { return request.summary }
        return "\(request.summary) (\(operation.summary))"
    }

    /// The difference under one rule, between requests whose stand-ins are already blurred.
    private func difference(for rule: MatchRule, _ live: Interaction.Request, _ recorded: Interaction.Request) -> String? {
        switch rule.kind {
        case .method:
            return live.method == recorded.method ? nil : "method: recorded \(recorded.method), request \(live.method)"
        case .url:
            let a = URLParts(live.url), b = URLParts(recorded.url)
            var lines: [String] = []
            if a.scheme.lowercased() != b.scheme.lowercased() { lines.append("scheme: recorded \(b.scheme), request \(a.scheme)") }
            if a.normalizedAuthority != b.normalizedAuthority { lines.append("host: recorded \(b.normalizedAuthority), request \(a.normalizedAuthority)") }
            if let path = pathDifference(a, b) { lines.append(path) }
            if let query = queryDifference(a, b) { lines.append(query) }
            return lines.isEmpty ? nil : lines.joined(separator: "; ")
        case .host:
            let a = URLParts(live.url).normalizedAuthority, b = URLParts(recorded.url).normalizedAuthority
            return a == b ? nil : "host: recorded \(b), request \(a)"
        case .path:
            return pathDifference(URLParts(live.url), URLParts(recorded.url))
        case .query:
            return queryDifference(URLParts(live.url), URLParts(recorded.url))
        case .headers(let names):
            var lines: [String] = []
            for name in names {
                let a = live.headers.values(for: name), b = recorded.headers.values(for: name)
                if a != b { lines.append("header \(name): recorded \(quoted(b)), request \(quoted(a))") }
            }
            return lines.isEmpty ? nil : lines.joined(separator: "; ")
        case .body:
            return bodyBytes(live.body) == bodyBytes(recorded.body) ? nil
                : "body: recorded \(recorded.body.byteCount) bytes, request \(live.body.byteCount) bytes, contents differ"
        case .json(let ignored):
            guard let a = bodyBytes(live.body).flatMap({ try? CassetteJSON.parse($0) }),
                  let b = bodyBytes(recorded.body).flatMap({ try? CassetteJSON.parse($0) })
            else {
                return bodyBytes(live.body) == bodyBytes(recorded.body) ? nil : "json body: one of the bodies is not JSON"
            }
            return a.firstDifference(from: b, ignoring: ignored).map { "json body differs at \($0)" }
        case .form:
            let a = URLEncodedForm.pairs(bodyBytes(live.body) ?? Data()).map { "\($0.name)=\($0.value)" }.sorted()
            let b = URLEncodedForm.pairs(bodyBytes(recorded.body) ?? Data()).map { "\($0.name)=\($0.value)" }.sorted()
            if a == b { return nil }
            let missing = Set(b).subtracting(a).sorted(), extra = Set(a).subtracting(b).sorted()
            return "form body: recorded only \(missing), request only \(extra)"
        case .multipart:
            return MultipartComparison.difference(
                live: bodyBytes(live.body).flatMap { MultipartComparison.parts($0, contentType: live.headers["Content-Type"]) },
                recorded: bodyBytes(recorded.body).flatMap { MultipartComparison.parts($0, contentType: recorded.headers["Content-Type"]) })
        case .graphQL(let ignored):
            return graphQLDifference(live, recorded, ignoring: ignored)
        case .custom(let name, let matches):
            return matches(live, recorded) ? nil : "custom rule \(name) did not match"
        }
    }

    /// `request` with its stand-ins (URL, header values, inline body) turned into the placeholder, so that redacted
    /// values compare equal whichever secret they stood for. A request without any is returned as it is.
    private static func blurred(_ request: Interaction.Request) -> Interaction.Request {
        var result = request
        result.url = StandIn.blurred(request.url)
        if request.headers.contains(where: { StandIn.mayContain($0.value) }) {
            result.headers = HTTPHeaders(request.headers.fields.map { .init(name: $0.name, value: StandIn.blurred($0.value)) })
        }
        if let data = request.body.inlineData, StandIn.mayContain(data) {
            result.body = CassetteBody(Data(StandIn.blurred(String(decoding: data, as: UTF8.self)).utf8),
                                       contentEncoding: request.body.contentEncoding)
        }
        return result
    }

    /// The `graphQL` rule. A request sent again as it was recorded (the same method, query string, content type and
    /// body bytes) is the same operation without reading it.
    private func graphQLDifference(_ live: Interaction.Request, _ recorded: Interaction.Request, ignoring: Set<String>) -> String? {
        let liveBody = bodyBytes(live.body) ?? Data(), recordedBody = bodyBytes(recorded.body) ?? Data()
        if live.method == recorded.method, liveBody == recordedBody, live.headers["Content-Type"] == recorded.headers["Content-Type"],
           live.url == recorded.url || URLParts(live.url).query == URLParts(recorded.url).query {
            return nil
        }
        let liveQuery = URLParts(live.url).query, recordedQuery = URLParts(recorded.url).query
        let a: GraphQLRequest?, b: GraphQLRequest?
        switch graphQLReadings.read(method: live.method, query: liveQuery, contentType: live.headers["Content-Type"], body: liveBody) {
        case .success(let reading): a = reading
        case .failure(let error): return "graphql: request: \(error)"
        }
        switch graphQLReadings.read(method: recorded.method, query: recordedQuery, contentType: recorded.headers["Content-Type"],
                                    body: recordedBody) {
        case .success(let reading): b = reading
        case .failure(let error): return "graphql: recorded: \(error)"
        }
        switch (a, b) {
        case (let a?, let b?):
            return GraphQLComparison.difference(live: a, recorded: b, ignoring: ignoring)
        case (nil, nil):
            return liveBody == recordedBody ? nil
                : "body (not GraphQL): recorded \(recorded.body.byteCount) bytes, request \(live.body.byteCount) bytes, contents differ"
        case (let a?, nil):
            return "graphql: recorded is not a GraphQL request, request is \(a.summary)"
        case (nil, let b?):
            return "graphql: recorded \(b.summary), request is not a GraphQL request"
        }
    }

    private func pathDifference(_ a: URLParts, _ b: URLParts) -> String? {
        let pa = a.path.isEmpty ? "/" : a.path, pb = b.path.isEmpty ? "/" : b.path
        return pa == pb ? nil : "path: recorded \(pb), request \(pa)"
    }

    private func queryDifference(_ a: URLParts, _ b: URLParts) -> String? {
        guard a.sortedQuery != b.sortedQuery else { return nil }
        let live = a.decodedQueryPairs, recorded = b.decodedQueryPairs
        var lines: [String] = []
        let names = (recorded.map(\.name) + live.map(\.name)).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for name in names {
            let x = recorded.filter { $0.name == name }.map(\.value), y = live.filter { $0.name == name }.map(\.value)
            if x.sorted() != y.sorted() { lines.append("query \(name): recorded \(quoted(x)), request \(quoted(y))") }
        }
        return lines.joined(separator: "; ")
    }

    private func quoted(_ values: [String]) -> String {
        values.isEmpty ? "(absent)" : values.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
