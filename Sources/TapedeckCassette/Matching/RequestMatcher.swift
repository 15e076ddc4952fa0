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
    /// What each `jsonRPC` rule has read so far, by the rule's description (its ignored paths).
    private let jsonRPCReadings: [String: JSONRPCReadings]

    init(rules: [MatchRule], bodyBytes: @escaping @Sendable (CassetteBody) -> Data?) {
        self.rules = rules
        self.bodyBytes = bodyBytes
        usesMethod = rules.contains { if case .method = $0.kind { return true } else { return false } }
        filters = rules.filter { !$0.isIndexed }
        readsBody = rules.contains { $0.readsBody }
        readsHeaders = rules.contains { $0.readsHeaders }
        var jsonRPCReadings: [String: JSONRPCReadings] = [:]
        for rule in rules {
            if case .jsonRPC(let ignored) = rule.kind { jsonRPCReadings[rule.description] = JSONRPCReadings(ignoring: ignored) }
        }
        self.jsonRPCReadings = jsonRPCReadings
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

    /// The differences between `live` and `recorded` under every rule, one per rule that differs (its line names each
    /// part that differs, its weight is theirs together); empty when they match.
    func differences(_ live: Interaction.Request, _ recorded: Interaction.Request) -> [NearMissDifference] {
        let live = Self.blurred(live), recorded = Self.blurred(recorded)
        return rules.compactMap { difference(for: $0, live, recorded) }
    }

    /// Whether a `jsonRPC` rule is among the rules.
    var readsJSONRPC: Bool { !jsonRPCReadings.isEmpty }

    /// Whether `request` is a JSON-RPC session's own plumbing or discovery, which any session may send again and a
    /// replay answers again once its recordings are played (under a `jsonRPC` rule only): a body of notifications
    /// and of `initialize`, `ping` and listing calls (MCP's `tools/list`, `prompts/list`, `resources/list`,
    /// `resources/templates/list`: a client lists again when it validates a result, so how often depends on the
    /// order of its calls), or no body at all (an MCP client's `GET` event stream, its `DELETE` at the end). A test
    /// suite opens many sessions against one cassette; their other calls are still answered once each.
    func repeatsInEverySession(_ request: Interaction.Request) -> Bool {
        guard let readings = jsonRPCReadings.values.first else { return false }
        let body = bodyBytes(request.body) ?? Data()
        if body.isEmpty { return request.method == "GET" || request.method == "DELETE" }
        guard case .messages(let messages, _) = readings.read(body).body else { return false }
        return messages.allSatisfy { message in
            guard message.kind == .call, let method = message.method else { return message.kind == .notification }
            return method == "initialize" || method == "ping" || method.hasSuffix("/list")
        }
    }

    /// `METHOD URL` for reports, followed by the GraphQL operation(s) when a `graphQL` rule reads the request
    /// (`POST http://127.0.0.1/graphql (query Hero)`), or the JSON-RPC method(s) when a `jsonRPC` rule does
    /// (`POST http://127.0.0.1/mcp (tools/call get_weather)`).
    func label(_ request: Interaction.Request) -> String {
        if let readings = jsonRPCReadings.values.first, let body = bodyBytes(request.body), let summary = readings.read(body).body.summary {
            return "\(request.summary) (\(summary))"
        }
        guard rules.contains(where: { if case .graphQL = $0.kind { true } else { false } }),
              let body = bodyBytes(request.body),
              let operation = try? GraphQLRequest.read(request, body: body)
        else { return request.summary }
        return "\(request.summary) (\(operation.summary))"
    }

    /// The difference under one rule, between requests whose stand-ins are already blurred.
    private func difference(for rule: MatchRule, _ live: Interaction.Request, _ recorded: Interaction.Request) -> NearMissDifference? {
        typealias Weight = NearMissDifference.Weight
        func detail(_ line: String?) -> NearMissDifference? { line.map { NearMissDifference(line: $0, weight: Weight.detail) } }
        switch rule.kind {
        case .method:
            return live.method == recorded.method ? nil
                : NearMissDifference(field: "method", explanation: "recorded \(recorded.method), request \(live.method)", weight: Weight.method)
        case .url:
            let a = URLParts(live.url), b = URLParts(recorded.url)
            var parts: [NearMissDifference] = []
            if a.scheme.lowercased() != b.scheme.lowercased() {
                parts.append(.init(field: "scheme", explanation: "recorded \(b.scheme), request \(a.scheme)", weight: Weight.place))
            }
            if let host = hostDifference(a, b) { parts.append(host) }
            if let path = pathDifference(a, b) { parts.append(path) }
            parts += queryDifferences(a, b)
            return Self.joined(parts)
        case .host:
            return hostDifference(URLParts(live.url), URLParts(recorded.url))
        case .path:
            return pathDifference(URLParts(live.url), URLParts(recorded.url))
        case .query:
            return Self.joined(queryDifferences(URLParts(live.url), URLParts(recorded.url)))
        case .headers(let names):
            return Self.joined(names.compactMap { name in
                let a = live.headers.values(for: name), b = recorded.headers.values(for: name)
                return a == b ? nil
                    : NearMissDifference(field: "header \(name)", explanation: "recorded \(quoted(b)), request \(quoted(a))", weight: Weight.detail)
            })
        case .body:
            return bodyBytes(live.body) == bodyBytes(recorded.body) ? nil
                : detail("body: recorded \(recorded.body.byteCount) bytes, request \(live.body.byteCount) bytes, contents differ")
        case .json(let ignored):
            guard let a = bodyBytes(live.body).flatMap({ try? CassetteJSON.parse($0) }),
                  let b = bodyBytes(recorded.body).flatMap({ try? CassetteJSON.parse($0) })
            else {
                return bodyBytes(live.body) == bodyBytes(recorded.body) ? nil : detail("json body: one of the bodies is not JSON")
            }
            return detail(a.firstDifference(from: b, ignoring: ignored).map { "json body differs at \($0)" })
        case .form:
            let a = URLEncodedForm.pairs(bodyBytes(live.body) ?? Data()).map { "\($0.name)=\($0.value)" }.sorted()
            let b = URLEncodedForm.pairs(bodyBytes(recorded.body) ?? Data()).map { "\($0.name)=\($0.value)" }.sorted()
            if a == b { return nil }
            let missing = Set(b).subtracting(a).sorted(), extra = Set(a).subtracting(b).sorted()
            return detail("form body: recorded only \(missing), request only \(extra)")
        case .multipart:
            return detail(MultipartComparison.difference(
                live: bodyBytes(live.body).flatMap { MultipartComparison.parts($0, contentType: live.headers["Content-Type"]) },
                recorded: bodyBytes(recorded.body).flatMap { MultipartComparison.parts($0, contentType: recorded.headers["Content-Type"]) }))
        case .graphQL(let ignored):
            // The operation is what the path is elsewhere: every operation is posted to one path.
            return graphQLDifference(live, recorded, ignoring: ignored).map { NearMissDifference(line: $0, weight: Weight.place) }
        case .jsonRPC(let ignored):
            // As for GraphQL, the method is what the path is elsewhere.
            guard let readings = jsonRPCReadings[rule.description] else { return nil }
            return jsonRPCDifference(live, recorded, readings: readings, ignoring: ignored)
        case .custom(let name, let matches):
            return matches(live, recorded) ? nil : detail("custom rule \(name) did not match")
        }
    }

    /// The parts one rule found different as one difference: their lines joined by `; `, their weights added.
    private static func joined(_ parts: [NearMissDifference]) -> NearMissDifference? {
        guard !parts.isEmpty else { return nil }
        if parts.count == 1 { return parts[0] }
        return NearMissDifference(line: parts.map(\.description).joined(separator: "; "), weight: parts.reduce(0) { $0 + $1.weight })
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
    private func graphQLDifference(_ live: Interaction.Request, _ recorded: Interaction.Request, ignoring: Set<JSONPath>) -> String? {
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

    /// The `jsonRPC` rule: the same calls, notifications and responses, by method and params, ids aside.
    /// A call differing only in its params is nearer than another method.
    private func jsonRPCDifference(_ live: Interaction.Request, _ recorded: Interaction.Request, readings: JSONRPCReadings,
                                   ignoring ignored: Set<JSONPath>) -> NearMissDifference? {
        typealias Weight = NearMissDifference.Weight
        let liveBody = bodyBytes(live.body) ?? Data(), recordedBody = bodyBytes(recorded.body) ?? Data()
        if liveBody == recordedBody { return nil }
        // The same call but for its id: no JSON read. (The ignored paths only widen what matches, so this stays true.)
        if JSONRPCQuickComparison.sameButForID(liveBody, recordedBody),
           readings.isCall(recordedBody) || readings.read(recordedBody).comparable != nil { return nil }
        let a = readings.read(liveBody), b = readings.read(recordedBody)
        switch (a.comparable, b.comparable) {
        case (let x?, let y?):
            if x == y { return nil }
            let found = JSONRPCComparison.difference(live: a.body, recorded: b.body, ignoring: ignored) ?? ("jsonrpc: the messages differ", true)
            return NearMissDifference(line: found.line, weight: found.onlyParams ? Weight.detail : Weight.place)
        case (nil, nil):
            return NearMissDifference(line: "body (not JSON-RPC): recorded \(recorded.body.byteCount) bytes, request \(live.body.byteCount) bytes, "
                                      + "contents differ", weight: Weight.detail)
        case (_?, nil):
            return NearMissDifference(line: "jsonrpc: recorded is not a JSON-RPC request, request is \(a.body.summary ?? "")", weight: Weight.place)
        case (nil, _?):
            return NearMissDifference(line: "jsonrpc: recorded \(b.body.summary ?? ""), request is not a JSON-RPC request", weight: Weight.place)
        }
    }

    private func hostDifference(_ a: URLParts, _ b: URLParts) -> NearMissDifference? {
        a.normalizedAuthority == b.normalizedAuthority ? nil
            : NearMissDifference(field: "host", explanation: "recorded \(b.normalizedAuthority), request \(a.normalizedAuthority)",
                                 weight: NearMissDifference.Weight.place)
    }

    private func pathDifference(_ a: URLParts, _ b: URLParts) -> NearMissDifference? {
        let pa = a.path.isEmpty ? "/" : a.path, pb = b.path.isEmpty ? "/" : b.path
        return pa == pb ? nil : NearMissDifference(field: "path", explanation: "recorded \(pb), request \(pa)", weight: NearMissDifference.Weight.place)
    }

    /// One difference per query parameter whose values differ; when only the spelling differs (the same decoded
    /// values, other escapes), one for the whole query.
    private func queryDifferences(_ a: URLParts, _ b: URLParts) -> [NearMissDifference] {
        guard a.sortedQuery != b.sortedQuery else { return [] }
        let live = a.decodedQueryPairs, recorded = b.decodedQueryPairs
        var found: [NearMissDifference] = []
        let names = (recorded.map(\.name) + live.map(\.name)).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for name in names {
            let x = recorded.filter { $0.name == name }.map(\.value), y = live.filter { $0.name == name }.map(\.value)
            if x.sorted() != y.sorted() {
                found.append(.init(field: "query \(name)", explanation: "recorded \(quoted(x)), request \(quoted(y))", weight: NearMissDifference.Weight.detail))
            }
        }
        if found.isEmpty {
            found.append(.init(field: "query", explanation: "recorded \"\(b.query ?? "")\", request \"\(a.query ?? "")\"",
                               weight: NearMissDifference.Weight.detail))
        }
        return found
    }

    private func quoted(_ values: [String]) -> String {
        values.isEmpty ? "(absent)" : values.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
