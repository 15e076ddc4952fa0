import Foundation
import TapedeckCore

/// A GraphQL condition's JSON form: `operationName` (a ``ValuePattern``: a string is "equal to"), `variables` (JSON
/// the variables must contain) and `exactVariables` (`true`: the variables must be exactly that).
///
/// ```json
/// {"operationName": "Hero", "variables": {"episode": "JEDI"}}
/// ```
extension GraphQLPattern: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case operationName, variables, exactVariables }

    /// Decodes the conditions, refusing unknown members and variables that are not a JSON object.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let variables = try container.decodeIfPresent(JSONValue.self, forKey: .variables)
        if let variables, variables.objectValue == nil {
            throw DecodingError.dataCorruptedError(forKey: .variables, in: container,
                                                   debugDescription: "GraphQL variables must be a JSON object, got \(variables.templateText)")
        }
        self.init(operationName: try container.decodeIfPresent(ValuePattern.self, forKey: .operationName), variables: variables,
                  exactVariables: try container.decodeIfPresent(Bool.self, forKey: .exactVariables) ?? false)
    }

    /// Encodes the conditions that are set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(operationName, forKey: .operationName)
        try container.encodeIfPresent(variables, forKey: .variables)
        if exactVariables { try container.encode(true, forKey: .exactVariables) }
    }
}
