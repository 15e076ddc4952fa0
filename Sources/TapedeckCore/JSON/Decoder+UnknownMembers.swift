import Foundation

/// Any member name of a JSON object, to find the members a decoded type does not know.
package struct AnyMemberKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }

    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

extension Decoder {
    /// Refuses the first member (by name, so the same one every run) of this object that `Keys` does not name, so
    /// that a misspelt or foreign field (a WireMock `url` in a Tapedeck definition, say) is an error at its place
    /// instead of silently ignored.
    package func rejectUnknownMembers<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let container = try container(keyedBy: AnyMemberKey.self)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where Keys(stringValue: key.stringValue) == nil {
            let known = Keys.allCases.map(\.stringValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                   debugDescription: "unknown field \(Shown.quoted(key.stringValue)) (known here: \(known))")
        }
    }
}
