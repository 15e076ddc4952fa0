import Foundation
import TapedeckCassette
import TapedeckCore

/// One row of `tapedeck inspect`: what an interaction was, in a few words.
public struct InteractionSummary: Sendable, Hashable {
    /// The position in the cassette.
    public var index: Int
    /// The request method.
    public var method: String
    /// The request URL.
    public var url: String
    /// The status code, when the server answered.
    public var status: Int?
    /// The error, when the transfer failed: `-1004 cannotConnectToHost`.
    public var error: String?
    /// The request body's size in bytes.
    public var requestBytes: Int64
    /// The response body's size in bytes.
    public var responseBytes: Int64
    /// When it was recorded.
    public var recordedAt: Date
    /// The GraphQL operation(s) of the request, when it is GraphQL over HTTP and its body is in the cassette.
    public var graphQL: GraphQLRequest?
    /// The JSON-RPC method(s) of the request, with the tool an MCP call names (`tools/call get_weather`), when it is
    /// JSON-RPC and its body is in the cassette.
    public var jsonRPC: String?

    /// Summarises the interaction at `index`.
    public init(index: Int, interaction: Interaction) {
        self.index = index
        method = interaction.request.method
        url = interaction.request.url
        requestBytes = interaction.request.body.byteCount
        recordedAt = interaction.recordedAt
        // A malformed GraphQL request is listed without its operation; `tapedeck lint` is where bodies are judged.
        graphQL = interaction.request.body.inlineData.flatMap { try? GraphQLRequest.read(interaction.request, body: $0) }
        jsonRPC = interaction.request.jsonRPCSummary
        switch interaction.outcome {
        case .response(let response):
            status = response.statusCode
            responseBytes = response.body.byteCount
        case .failure(let failure):
            error = "\(failure.code) \(URLErrorNames.name(failure.code))"
            responseBytes = 0
        }
    }

    /// The summaries of a whole cassette.
    public static func all(_ cassette: Cassette) -> [InteractionSummary] {
        cassette.interactions.enumerated().map { InteractionSummary(index: $0, interaction: $1) }
    }

    /// The table `tapedeck inspect` prints; a `graphql` column names the operations when any request is GraphQL, a
    /// `jsonrpc` column the methods when any is JSON-RPC.
    public static func table(_ summaries: [InteractionSummary]) -> TextTable {
        let listsGraphQL = summaries.contains { $0.graphQL != nil }
        let listsJSONRPC = summaries.contains { $0.jsonRPC != nil }
        var header = ["#", "method", "url", "status", "request", "response", "recorded at"]
        if listsJSONRPC { header.insert("jsonrpc", at: 3) }
        if listsGraphQL { header.insert("graphql", at: 3) }
        let extra = (listsGraphQL ? 1 : 0) + (listsJSONRPC ? 1 : 0)
        var table = TextTable(header: header, rightAligned: [0, 4 + extra, 5 + extra])
        for row in summaries {
            var cells = [String(row.index), row.method, row.url, row.status.map(String.init) ?? "error \(row.error ?? "")",
                         ByteCount.format(row.requestBytes), ByteCount.format(row.responseBytes), ISO8601.format(row.recordedAt)]
            if listsJSONRPC { cells.insert(row.jsonRPC ?? "", at: 3) }
            if listsGraphQL { cells.insert(row.graphQL?.summary ?? "", at: 3) }
            table.append(cells)
        }
        return table
    }

    /// The JSON `tapedeck inspect --json` prints: an array of objects, with a `graphql` member for GraphQL requests and
    /// a `jsonrpc` member (the methods) for JSON-RPC ones.
    public static func json(_ summaries: [InteractionSummary]) -> CassetteJSON {
        .array(summaries.map { row in
            var members: [CassetteJSON.Member] = [
                .init("index", .integer(row.index)), .init("method", .string(row.method)), .init("url", .string(row.url)),
            ]
            members.append(.init("status", row.status.map { .integer($0) } ?? .null))
            members.append(.init("error", row.error.map { .string($0) } ?? .null))
            members += [.init("requestBytes", .integer(row.requestBytes)), .init("responseBytes", .integer(row.responseBytes)),
                        .init("recordedAt", .string(ISO8601.format(row.recordedAt)))]
            if let graphQL = row.graphQL { members.append(.init("graphql", graphQLJSON(graphQL))) }
            if let jsonRPC = row.jsonRPC { members.append(.init("jsonrpc", .string(jsonRPC))) }
            return .object(members)
        })
    }
}

extension InteractionSummary {
    /// `{"batch": false, "operations": [{"kind": "query", "name": "Hero", "persistedQueryHash": null, "variables": […]}]}`,
    /// the variables by name only (their values are in the cassette).
    static func graphQLJSON(_ request: GraphQLRequest) -> CassetteJSON {
        .object([
            .init("batch", .bool(request.isBatch)),
            .init("operations", .array(request.operations.map { operation in
                .object([
                    .init("kind", operation.kind.map { .string($0.rawValue) } ?? .null),
                    .init("name", operation.name.map { .string($0) } ?? .null),
                    .init("persistedQueryHash", operation.persistedQueryHash.map { .string($0) } ?? .null),
                    .init("variables", .array((operation.variables.objectValue ?? []).map { .string($0.key) })),
                ])
            })),
        ])
    }
}

/// ISO 8601 UTC with milliseconds, as cassettes spell times.
public enum ISO8601 {
    /// `2026-01-31T12:00:00.000Z`
    public static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}
