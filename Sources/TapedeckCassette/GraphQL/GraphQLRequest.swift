import Foundation
import TapedeckCore

/// The GraphQL operation(s) an HTTP request carries, read the way GraphQL-over-HTTP servers read them:
///
/// - a JSON body (`application/json` or `application/graphql+json`) with `query`, `operationName`, `variables` and
///   `extensions` (Apollo's automatic persisted queries put `extensions.persistedQuery.sha256Hash` there, with or
///   without the query text); a JSON array of such objects is a batch (Apollo's batch link);
/// - an `application/graphql` body holding the document itself, the rest in the query string;
/// - a request without a body (GET) with `query`, `operationName`, and `variables` and `extensions` as JSON text in
///   the query string.
///
/// A request is GraphQL when it carries a document (text that starts like one: `{`, `query`, `mutation`,
/// `subscription` or `fragment`) or a persisted-query hash; anything else reads as `nil`.
///
/// ```swift
/// let body = Data(#"{"operationName":"Hero","query":"query Hero { hero { name } }","variables":{"episode":"JEDI"}}"#.utf8)
/// let request = try GraphQLRequest.read(method: "POST", query: nil, contentType: "application/json", body: body)
/// request?.operations[0].summary      // "query Hero"
/// ```
public struct GraphQLRequest: Sendable, Hashable {
    /// The operations, one unless the request is a batch.
    public var operations: [GraphQLOperation]
    /// Whether the body was a JSON array of operations.
    public var isBatch: Bool

    /// Reads the GraphQL operations of an HTTP request; `nil` when it is not a GraphQL request.
    ///
    /// - Parameters:
    ///   - method: the request method (only used in messages; the body decides where the operation is).
    ///   - query: the URL's query string, without `?`.
    ///   - contentType: the `Content-Type` header.
    ///   - body: the request body.
    /// - Throws: ``GraphQLRequestError`` when the request is GraphQL but malformed (a document that does not lex,
    ///   variables that are not a JSON object, a batch with a member that is not an operation).
    public static func read(method: String, query: Substring?, contentType: String?, body: Data) throws(GraphQLRequestError) -> GraphQLRequest? {
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        let parameters = query.map { URLEncodedForm.pairs(Data($0.utf8)) } ?? []
        if body.isEmpty {
            return try fromParameters(parameters, document: nil, where: "query string")
                .map { GraphQLRequest(operations: [$0], isBatch: false) }
        }
        if mediaType == "application/graphql" {
            let text = String(decoding: body, as: UTF8.self)
            return try fromParameters(parameters, document: text, where: "\(method) body")
                .map { GraphQLRequest(operations: [$0], isBatch: false) }
        }
        guard let json = CassetteJSON.parseBody(body) else { return nil }
        switch json {
        case .object:
            return try operation(json, where: "body").map { GraphQLRequest(operations: [$0], isBatch: false) }
        case .array(let elements):
            let operations = try elements.enumerated().map { index, element throws(GraphQLRequestError) in
                try operation(element, where: "batch member \(index)")
            }
            if operations.allSatisfy({ $0 == nil }) { return nil }
            if let index = operations.firstIndex(where: { $0 == nil }) {
                throw GraphQLRequestError(reason: "batch member \(index) is not a GraphQL operation (no \"query\" or persisted-query hash)")
            }
            return GraphQLRequest(operations: operations.map { $0! }, isBatch: true)
        default:
            return nil
        }
    }

    /// Reads the GraphQL operations of a recorded or live request whose body bytes are `body`.
    public static func read(_ request: Interaction.Request, body: Data) throws(GraphQLRequestError) -> GraphQLRequest? {
        try read(method: request.method, query: URLParts(request.url).query, contentType: request.headers["Content-Type"], body: body)
    }

    /// A one-line summary: the operation's summary, or `batch of 3: query A, query B, mutation C`.
    public var summary: String {
        let listed = operations.map(\.summary).joined(separator: ", ")
        return isBatch ? "batch of \(operations.count): \(listed)" : listed
    }

    /// An operation from a JSON object with `query`, `operationName`, `variables` and `extensions` members.
    private static func operation(_ json: CassetteJSON, where place: String) throws(GraphQLRequestError) -> GraphQLOperation? {
        guard case .object = json else { return nil }
        let hash = json["extensions"]?["persistedQuery"]?["sha256Hash"]?.stringValue
        let text: String?
        switch json["query"] {
        case .string(let value) where hash != nil || GraphQLDocument.looksLikeDocument(value): text = value
        case nil, .null?: text = nil
        default:
            // `{"query": {"match": …}}` or `{"query": "shoes"}` is another API's body; with a hash it is a broken one.
            guard hash != nil else { return nil }
            throw GraphQLRequestError(reason: "\(place): \"query\" is not a GraphQL document")
        }
        guard text != nil || hash != nil else { return nil }
        let name: String?
        switch json["operationName"] {
        case .string(let value): name = value
        case nil, .null?: name = nil
        default: throw GraphQLRequestError(reason: "\(place): \"operationName\" is not a string")
        }
        return try GraphQLOperation(operationName: name, text: text, hash: hash,
                                    variables: variables(json["variables"], where: place), where: place)
    }

    /// An operation from query-string parameters, with the document given or taken from `query`.
    private static func fromParameters(_ parameters: [(name: String, value: String)], document: String?, where place: String) throws(GraphQLRequestError) -> GraphQLOperation? {
        func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
        let text = document ?? parameter("query").flatMap { GraphQLDocument.looksLikeDocument($0) ? $0 : nil }
        var hash: String?
        if let extensions = parameter("extensions") {
            if let json = try? CassetteJSON.parse(extensions) {
                hash = json["persistedQuery"]?["sha256Hash"]?.stringValue
            } else if text != nil {
                throw GraphQLRequestError(reason: "\(place): the extensions parameter is not JSON")
            }
        }
        guard text != nil || hash != nil else { return nil }
        var variables: CassetteJSON?
        if let value = parameter("variables") {
            do throws(JSONSyntaxError) {
                variables = try CassetteJSON.parse(value)
            } catch {
                throw GraphQLRequestError(reason: "\(place): the variables parameter is not JSON (\(error))")
            }
        }
        return try GraphQLOperation(operationName: parameter("operationName").flatMap { $0.isEmpty ? nil : $0 },
                                    text: text, hash: hash, variables: Self.variables(variables, where: place), where: place)
    }

    private static func variables(_ json: CassetteJSON?, where place: String) throws(GraphQLRequestError) -> CassetteJSON {
        switch json {
        case nil, .null?: return .object([])
        case .object?: return json!
        default: throw GraphQLRequestError(reason: "\(place): \"variables\" is not a JSON object")
        }
    }
}

/// One GraphQL operation as a request sends it.
public struct GraphQLOperation: Sendable, Hashable {
    /// `operationName` as sent, or `nil`.
    public var operationName: String?
    /// The document, when the request sends its text (an automatic persisted query may send only the hash).
    public var document: GraphQLDocument?
    /// `extensions.persistedQuery.sha256Hash`, when sent.
    public var persistedQueryHash: String?
    /// The variables, an object (empty when none are sent or they are `null`).
    public var variables: CassetteJSON

    /// Creates an operation from the text of its document, which is read and normalized.
    public init(operationName: String?, text: String?, persistedQueryHash: String? = nil, variables: CassetteJSON = .object([])) throws(GraphQLSyntaxError) {
        self.operationName = operationName
        document = try text.map { (text) throws(GraphQLSyntaxError) in try GraphQLDocument(text) }
        self.persistedQueryHash = persistedQueryHash
        self.variables = variables
    }

    init(operationName: String?, text: String?, hash: String?, variables: CassetteJSON, where place: String) throws(GraphQLRequestError) {
        do throws(GraphQLSyntaxError) {
            try self.init(operationName: operationName, text: text, persistedQueryHash: hash, variables: variables)
        } catch {
            throw GraphQLRequestError(reason: "\(place): \(error)")
        }
    }

    /// The operation's name: `operationName`, or the name of the document's only operation.
    public var name: String? { operationName ?? document?.operation(named: nil)?.name }

    /// The kind of the operation selected, when the document is sent and names it.
    public var kind: GraphQLOperationKind? { document?.operation(named: operationName)?.kind }

    /// `query Hero`, `mutation (anonymous)`, or `persisted Hero (sha256 1a2b3c4d…)` when only the hash is sent.
    public var summary: String {
        let name = self.name ?? "(anonymous)"
        if document == nil, let hash = persistedQueryHash { return "persisted \(name) (sha256 \(hash.prefix(8))…)" }
        return "\(kind?.rawValue ?? "operation") \(name)"
    }
}

/// A request that is GraphQL over HTTP but cannot be read as such.
public struct GraphQLRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and where, e.g. `body: "variables" is not a JSON object`.
    public var reason: String

    /// `malformed GraphQL request: ` and the reason.
    public var description: String { "malformed GraphQL request: \(reason)" }
}
