import Foundation
import TapedeckCore

/// Recorded requests that a cassette's match rules cannot tell apart although they sent different bodies: on replay
/// each gets the answer of whichever of them comes next in recorded order, so a client that sends them in another
/// order, or only some of them, gets another request's answer. Found when recording ends, when a cassette is served,
/// and by `tapedeck lint`, with the rule that would separate them.
///
/// ```swift
/// for ambiguity in ReplayAmbiguity.find(in: cassette, matching: [.method, .url]) {
///     print(ambiguity)   // interactions #0 POST …/graphql (query Hero), #1 … are one request under match method,url …
/// }
/// ```
public struct ReplayAmbiguity: Sendable, Hashable, CustomStringConvertible {
    /// The positions of the interactions, one for each distinct body, in recorded order.
    public var interactions: [Int]
    /// `METHOD URL` of each (with the GraphQL operation when there is one), in the order of ``interactions``.
    public var requests: [String]
    /// The rules they were compared under.
    public var rules: [String]
    /// A rule that, added to ``rules``, separates them; `nil` when none of the body rules does.
    public var separatingRule: String?

    /// One line for a report.
    public var description: String {
        let shown = zip(interactions, requests).prefix(4).map { "#\($0) \($1)" }.joined(separator: ", ")
        let more = interactions.count > 4 ? " and \(interactions.count - 4) more" : ""
        let fix = separatingRule.map { "; match \((rules + [$0]).joined(separator: ",")) tells them apart" } ?? ""
        return "interactions \(shown)\(more) are one request under match \(rules.joined(separator: ",")) but send different "
            + "bodies, so replay answers them by recorded order alone\(fix)"
    }

    /// What a replay says once about `cassette` under `matching` (at the end of a recording, when `serve` starts): each
    /// group ``find(in:matching:bodyBytes:)`` names, then each request that says it is JSON-RPC but is not one, which
    /// the `jsonRPC` rule compares byte for byte.
    package static func notes(in cassette: Cassette, matching: [MatchRule],
                              bodyBytes: @escaping @Sendable (CassetteBody) -> Data? = { $0.inlineData }) -> [String] {
        find(in: cassette, matching: matching, bodyBytes: bodyBytes).map(\.description) + JSONRPCFallback.notes(in: cassette, matching: matching)
    }

    /// The groups of `cassette`'s interactions that `matching` cannot tell apart although their request bodies differ.
    /// `bodyBytes` reads a body (sidecar files included); bodies are read only for requests that share an index key.
    public static func find(in cassette: Cassette, matching: [MatchRule],
                            bodyBytes: @escaping @Sendable (CassetteBody) -> Data? = { $0.inlineData }) -> [ReplayAmbiguity] {
        let matcher = RequestMatcher(rules: matching, bodyBytes: bodyBytes)
        var buckets: [MatchKey: [Int]] = [:]
        var order: [MatchKey] = []
        for (index, interaction) in cassette.interactions.enumerated() where interaction.webSocket == nil {
            let key = matcher.key(for: interaction.request)
            if buckets[key] == nil { order.append(key) }
            buckets[key, default: []].append(index)
        }
        // Names each request with its GraphQL operation, when it has one.
        let labeller = RequestMatcher(rules: matching + [.graphQL(), .jsonRPC()], bodyBytes: bodyBytes)
        var found: [ReplayAmbiguity] = []
        for key in order {
            guard let indices = buckets[key], indices.count > 1 else { continue }
            // One representative per distinct body, in recorded order.
            var seen: [Data: Int] = [:]
            var representatives: [Int] = []
            for index in indices {
                let body = bodyBytes(cassette.interactions[index].request.body) ?? Data()
                if seen[body] == nil {
                    seen[body] = index
                    representatives.append(index)
                }
            }
            guard representatives.count > 1 else { continue }
            for group in indistinguishable(representatives, in: cassette, matcher: matcher) {
                let requests = group.map { cassette.interactions[$0].request }
                guard let separating = separatingRule(for: requests, rules: matching, bodyBytes: bodyBytes) else { continue }
                found.append(ReplayAmbiguity(interactions: group, requests: requests.map(labeller.label),
                                             rules: matching.map(\.description), separatingRule: separating.description))
            }
        }
        return found
    }

    /// Splits `indices` into groups whose members pass each other's rules (each group of two or more).
    private static func indistinguishable(_ indices: [Int], in cassette: Cassette, matcher: RequestMatcher) -> [[Int]] {
        var groups: [[Int]] = []
        for index in indices {
            let request = cassette.interactions[index].request
            if let slot = groups.firstIndex(where: { group in
                let other = cassette.interactions[group[0]].request
                return matcher.passesFilters(request, other) && matcher.passesFilters(other, request)
            }) {
                groups[slot].append(index)
            } else {
                groups.append([index])
            }
        }
        return groups.filter { $0.count > 1 }
    }

    /// The first body rule that, added to `rules`, tells every pair of `requests` apart.
    private static func separatingRule(for requests: [Interaction.Request], rules: [MatchRule],
                                       bodyBytes: @escaping @Sendable (CassetteBody) -> Data?) -> MatchRule? {
        let candidates: [MatchRule] = [.jsonRPC(), .graphQL(), .json(), .form, .multipart, .body]
        for candidate in candidates where !rules.contains(where: { $0.description == candidate.description }) {
            let matcher = RequestMatcher(rules: rules + [candidate], bodyBytes: bodyBytes)
            let separates = requests.indices.allSatisfy { i in
                requests.indices.allSatisfy { j in i == j || !matcher.passesFilters(requests[i], requests[j]) }
            }
            if separates && appliesSensibly(candidate, to: requests, bodyBytes: bodyBytes) { return candidate }
        }
        return nil
    }

    /// Whether `rule` reads these requests as what it is for (a GraphQL rule for GraphQL requests, a JSON rule for
    /// JSON bodies), rather than separating them only by falling back to their bytes.
    private static func appliesSensibly(_ rule: MatchRule, to requests: [Interaction.Request],
                                        bodyBytes: (CassetteBody) -> Data?) -> Bool {
        switch rule.kind {
        case .graphQL:
            return requests.allSatisfy { request in
                (try? GraphQLRequest.read(request, body: bodyBytes(request.body) ?? Data())) != nil
            }
        case .jsonRPC:
            return requests.allSatisfy { request in
                if case .messages = JSONRPCBody.read(bodyBytes(request.body) ?? Data()) { true } else { false }
            }
        case .json:
            return requests.allSatisfy { request in bodyBytes(request.body).flatMap { try? CassetteJSON.parse($0) } != nil }
        case .form:
            return requests.allSatisfy { ($0.headers["Content-Type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded") }
        case .multipart:
            return requests.allSatisfy { ($0.headers["Content-Type"] ?? "").lowercased().hasPrefix("multipart/") }
        default:
            return true
        }
    }
}
