import TapedeckCore

/// Local `$ref`s: JSON pointers (`#/components/schemas/Pet`) into the document a schema belongs to.
enum SchemaReference {
    /// The value `reference` points at in `root`, or `nil` when it is not local (`#…`) or points at nothing.
    static func target(of reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        return root.value(at: JSONPointer.tokens(reference.dropFirst()))
    }
}
