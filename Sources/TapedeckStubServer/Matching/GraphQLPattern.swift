import Foundation
import TapedeckCassette
import TapedeckCore

/// Conditions on the GraphQL operation a request carries (read as `GraphQLRequest` reads it: a JSON POST body, an
/// `application/graphql` body or GET parameters): its name and its variables. A request that is not GraphQL never
/// satisfies it; in a batch, every operation must.
///
/// ```swift
/// server.stub(RequestPattern(.post, "/graphql").graphQL(operation: "Hero", variables: ["episode": "JEDI"]),
///             .json(["data": ["hero": ["name": "R2-D2"]]]))
/// ```
public struct GraphQLPattern: Sendable, Hashable, CustomStringConvertible {
    /// A condition on the operation's name (`operationName`, or the name of the document's only operation);
    /// ``ValuePattern/absent`` for an anonymous operation.
    public var operationName: ValuePattern?
    /// The variables the operation must send: members present and equal, extra members allowed, unless
    /// ``exactVariables``.
    public var variables: JSONValue?
    /// Whether the variables must be exactly ``variables`` (member order aside), not merely contain them.
    public var exactVariables: Bool

    /// Creates the conditions; with no arguments any GraphQL request satisfies them.
    public init(operationName: ValuePattern? = nil, variables: JSONValue? = nil, exactVariables: Bool = false) {
        self.operationName = operationName
        self.variables = variables
        self.exactVariables = exactVariables
    }

    /// `nil` when `request` satisfies the conditions, or a sentence naming its operation and what differs, with its
    /// weight for ranking near misses: another operation weighs as much as another path, other variables less.
    func difference(_ request: RecordedRequest) -> (explanation: String, weight: Int)? {
        let graphQL: GraphQLRequest?
        do throws(GraphQLRequestError) {
            graphQL = try GraphQLRequest.read(method: request.method.rawValue, query: request.query.map { Substring($0) },
                                              contentType: request.headers["Content-Type"], body: request.body)
        } catch {
            return ("expected a GraphQL request, got a \(error)", 8)
        }
        guard let graphQL else { return ("expected a GraphQL request, got \(BodyPattern.preview(request.body))", 8) }
        for (index, operation) in graphQL.operations.enumerated() {
            if let operationName, let difference = operationName.difference(values: operation.name.map { [$0] } ?? []) {
                return (inBatch(graphQL, index) + "operation name \(difference) (\(operation.summary))", 6)
            }
            if let difference = variablesDifference(operation) { return (inBatch(graphQL, index) + difference, 3) }
        }
        return nil
    }

    private func inBatch(_ request: GraphQLRequest, _ index: Int) -> String {
        request.isBatch ? "batch member \(index): " : ""
    }

    private func variablesDifference(_ operation: GraphQLOperation) -> String? {
        guard let variables else { return nil }
        let actual = JSONValue(parsing: CassetteJSON.serialize(operation.variables)) ?? .object([:])
        let difference = exactVariables
            ? (actual == variables ? nil : "expected \(variables.templateText), got \(actual.templateText)")
            : JSONPartialMatch.difference(expected: variables, actual: actual)
        return difference.map { "\(operation.summary) variables: \($0)" }
    }

    /// The conditions in words, e.g. `graphql operation equal to "Hero", variables containing {"episode":"JEDI"}`.
    public var description: String {
        var parts = operationName.map { ["operation \($0)"] } ?? []
        if let variables { parts.append("variables \(exactVariables ? "equal to" : "containing") \(variables.templateText)") }
        return parts.isEmpty ? "graphql" : "graphql " + parts.joined(separator: ", ")
    }
}

extension RequestPattern {
    /// This pattern with conditions on the GraphQL operation: its name and the variables it must send (extra
    /// variables allowed unless `exactVariables`).
    public func graphQL(operation name: ValuePattern? = nil, variables: JSONValue? = nil, exactVariables: Bool = false) -> RequestPattern {
        var copy = self
        copy.graphQL = GraphQLPattern(operationName: name, variables: variables, exactVariables: exactVariables)
        return copy
    }
}
