import Foundation

/// One thing a recorded request must share with a live one to be replayed for it. A cassette matches on
/// ``defaults`` (method and URL, query order ignored) unless told otherwise.
///
/// ```swift
/// var configuration = CassetteConfiguration()
/// configuration.matching = [.method, .path, .headers("X-Tenant"), .json(ignoring: ["requestId", "items.*.ts"])]
/// ```
public struct MatchRule: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case method, url, host, path, query
        case headers([String])
        case body, json(Set<JSONPath>), form, multipart
        case graphQL(Set<JSONPath>)
        case jsonRPC(Set<JSONPath>)
        case custom(String, @Sendable (Interaction.Request, Interaction.Request) -> Bool)
    }

    let kind: Kind

    /// The method, compared exactly.
    public static let method = MatchRule(kind: .method)
    /// The whole URL: scheme, host (case-insensitive), port, path and query with its items in any order; the
    /// fragment is ignored.
    public static let url = MatchRule(kind: .url)
    /// The host and port only.
    public static let host = MatchRule(kind: .host)
    /// The path only.
    public static let path = MatchRule(kind: .path)
    /// The query only, items in any order.
    public static let query = MatchRule(kind: .query)
    /// The body, byte for byte.
    public static let body = MatchRule(kind: .body)
    /// `application/x-www-form-urlencoded` bodies as sets of fields: order and percent-encoding spelling ignored.
    public static let form = MatchRule(kind: .form)
    /// `multipart/*` bodies part by part: the boundary is ignored; parts compare by name, filename, content type
    /// and content, in order.
    public static let multipart = MatchRule(kind: .multipart)

    /// The values of these header fields (case-insensitive names), in order.
    public static func headers(_ names: String...) -> MatchRule { MatchRule(kind: .headers(names)) }

    /// The values of these header fields (case-insensitive names), in order.
    public static func headers(_ names: [String]) -> MatchRule { MatchRule(kind: .headers(names)) }

    /// JSON bodies compared as values: key order and number spelling ignored, and so are the members at `paths`
    /// (`JSONPath`s: `"meta.requestId"`, `"items.*.ts"`, `"$.items[*].ts"`).
    public static func json(ignoring paths: Set<JSONPath> = []) -> MatchRule { MatchRule(kind: .json(paths)) }

    /// GraphQL over HTTP (``GraphQLRequest``: a JSON POST body, a batch, an `application/graphql` body, or GET
    /// parameters) compared by operation: the operation name, the persisted-query hash or else the document with
    /// whitespace, commas and comments ignored, and the variables as JSON values (member order ignored) but for the
    /// paths in `ignoringVariables` (`JSONPath`s: `input.clientMutationId`, `*.ts`). Requests that are not GraphQL
    /// compare by their body bytes. Every operation goes to the same URL, so pair it with ``method``, ``host`` and
    /// ``path`` (a GET's query string holds the document, so not ``url`` or ``query``):
    ///
    /// ```swift
    /// configuration.matching = [.method, .host, .path, .graphQL()]
    /// ```
    public static func graphQL(ignoringVariables paths: Set<JSONPath> = []) -> MatchRule {
        MatchRule(kind: .graphQL(paths))
    }

    /// JSON-RPC 2.0 (one message, or a batch of them in an array) compared by what each message asks: its method and
    /// its params as JSON values (member order and number spelling ignored), never its `id`, which every client
    /// numbers its own way; a notification matches only a notification. The params' `_meta` (MCP's progress
    /// tokens and other metadata) is never compared, and neither are the paths in `ignoringParams` (`JSONPath`s
    /// relative to the params: `cursor`, `arguments.requestId`). Bodies that are not JSON-RPC (the MCP `GET`
    /// stream, a `DELETE`) compare by their bytes. Every call goes to the same URL, so pair it with ``method`` and
    /// ``url``; replay answers with the caller's `id`, and answers a session's plumbing and discovery (`initialize`,
    /// `ping`, notifications, listing calls such as `tools/list`, a bodiless `GET` or `DELETE`) again in every
    /// session, its other calls once. Each MCP session is given its own `Mcp-Session-Id` (the recorded one first),
    /// and what the server pushed on a session's `GET` event stream while a call was in flight is sent on the
    /// replayed session's stream when that call is replayed, which stays open until the session's `DELETE`:
    ///
    /// ```swift
    /// configuration.matching = [.method, .url, .jsonRPC()]
    /// ```
    public static func jsonRPC(ignoringParams paths: Set<JSONPath> = []) -> MatchRule {
        MatchRule(kind: .jsonRPC(paths))
    }

    /// A custom comparison of the live request (first argument) with a recorded one (second); `name` appears in
    /// near-miss reports.
    public static func custom(_ name: String, _ matches: @escaping @Sendable (Interaction.Request, Interaction.Request) -> Bool) -> MatchRule {
        MatchRule(kind: .custom(name, matches))
    }

    /// Method and URL, query order ignored.
    public static let defaults: [MatchRule] = [.method, .url]

    /// How messages and reports print it.
    public var description: String {
        switch kind {
        case .method: return "method"
        case .url: return "url"
        case .host: return "host"
        case .path: return "path"
        case .query: return "query"
        case .headers(let names): return "headers(\(names.joined(separator: ", ")))"
        case .body: return "body"
        case .json(let paths): return paths.isEmpty ? "json" : "json(ignoring: \(paths.map(\.expression).sorted().joined(separator: ", ")))"
        case .form: return "form"
        case .multipart: return "multipart"
        case .graphQL(let paths):
            return paths.isEmpty ? "graphql" : "graphql(ignoring variables: \(paths.map(\.expression).sorted().joined(separator: ", ")))"
        case .jsonRPC(let paths):
            return paths.isEmpty ? "jsonrpc" : "jsonrpc(ignoring params: \(paths.map(\.expression).sorted().joined(separator: ", ")))"
        case .custom(let name, _): return "custom(\(name))"
        }
    }

    /// Whether the rule looks at the body (or at the `Content-Length` that redacting a body may change). When no rule
    /// does, a live request's body is neither read, redacted nor kept to be matched.
    var readsBody: Bool {
        switch kind {
        case .method, .url, .host, .path, .query: return false
        case .headers(let names): return names.contains { $0.lowercased() == "content-length" }
        case .body, .json, .form, .multipart, .graphQL, .jsonRPC, .custom: return true
        }
    }

    /// Whether the rule looks at header fields other than `Content-Type` (which the body rules read to know the
    /// body's form). When no rule does, a live request's other fields are neither redacted nor kept to be matched.
    var readsHeaders: Bool {
        switch kind {
        case .method, .url, .host, .path, .query, .body, .json, .form, .multipart, .graphQL, .jsonRPC: return false
        case .headers, .custom: return true
        }
    }

    /// Whether the rule is decided by the index key rather than by comparing candidates.
    var isIndexed: Bool {
        switch kind {
        case .method, .url, .host, .path, .query: return true
        default: return false
        }
    }
}
