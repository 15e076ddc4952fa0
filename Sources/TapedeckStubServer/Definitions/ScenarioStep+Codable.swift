import Foundation
import TapedeckCore

/// A scenario step's JSON form: `{"name": "cart", "requiredState": "Started", "newState": "has item"}`, the states
/// optional.
extension ScenarioStep: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case name, requiredState, newState }

    /// Decodes `{"name", "requiredState", "newState"}`; the name must not be empty.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        guard !name.isEmpty else { throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "must not be empty") }
        self.init(name, requiredState: try container.decodeIfPresent(String.self, forKey: .requiredState),
                  newState: try container.decodeIfPresent(String.self, forKey: .newState))
    }

    /// Encodes `{"name", "requiredState", "newState"}`, leaving out absent states.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .name)
        try container.encodeIfPresent(requiredState, forKey: .requiredState)
        try container.encodeIfPresent(newState, forKey: .newState)
    }
}
